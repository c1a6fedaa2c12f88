#pragma once
#include "model/middle.h"
#include "base/fine.h"
