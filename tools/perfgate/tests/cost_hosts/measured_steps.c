/* A cost program for the cost runner's host tests: five measured steps of the same arithmetic, each dumped as
 * "steps". What else is loaded with it (an initializer library) must not change the steps' counts. */
#include <stdio.h>
#include <valgrind/callgrind.h>

static volatile unsigned long sink;

static unsigned long step(unsigned long seed) {
  unsigned long x = seed;
  for (int i = 0; i < 10000; ++i) x = x * 6364136223846793005ul + 1442695040888963407ul;
  return x;
}

int main(void) {
  CALLGRIND_START_INSTRUMENTATION;
  for (int i = 0; i < 5; ++i) {
    CALLGRIND_ZERO_STATS;
    sink = step((unsigned long)i);
    CALLGRIND_DUMP_STATS_AT("steps");
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  printf("context probe measured_steps\n");
  return 0;
}
