#pragma once
#include "fine.h"
#include "model/gone.h"
