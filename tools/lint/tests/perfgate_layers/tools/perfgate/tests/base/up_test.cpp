// A fixture: a test of the base layer that reaches into render.
#include "render/high.h"
