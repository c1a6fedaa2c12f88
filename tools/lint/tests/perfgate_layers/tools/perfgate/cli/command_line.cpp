// The parser, where it may be included.
#include <CLI/CLI.hpp>
