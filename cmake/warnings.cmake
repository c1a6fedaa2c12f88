# project_warnings(<target>): an INTERFACE target with the warnings our own code compiles with, errors when
# <werror> is true. Third-party headers come from imported targets and stay quiet. Shared by the repository's
# top level and perfgate built alone (tools/CMakeLists.txt), so the two never disagree on a warning.
function(project_warnings target werror)
  add_library(${target} INTERFACE)
  target_compile_options(${target} INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual -Wimplicit-fallthrough
    $<$<BOOL:${werror}>:-Werror>)
endfunction()
