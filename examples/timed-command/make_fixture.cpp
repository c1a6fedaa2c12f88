// Writes the example's fixture: a deterministic text of WORDS words drawn from a vocabulary of 5000, as a build step.
//   make_fixture FILE WORDS
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr) return 2;
  unsigned state = 2024;
  const long words = std::strtol(argv[2], nullptr, 10);
  for (long i = 0; i < words; ++i) {
    state = state * 1664525u + 1013904223u;
    std::fprintf(out, "w%u%c", (state >> 8) % 5000, i % 16 == 15 ? '\n' : ' ');
  }
  return std::fclose(out) == 0 ? 0 : 2;
}
