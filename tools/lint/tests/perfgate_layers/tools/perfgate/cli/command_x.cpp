#include <CLI/CLI.hpp>
// A command that includes the parser itself.
