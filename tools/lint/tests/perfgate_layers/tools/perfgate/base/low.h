#pragma once
// A fixture: a base header reaching up into the render layer.
#include "base/fine.h"
#include "render/high.h"
