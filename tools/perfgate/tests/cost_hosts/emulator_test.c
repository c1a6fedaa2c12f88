/* The instruction emulator's decoding and register writes, natively: each instruction's bytes in a buffer, a
 * register file pointing at them, and what emulate() leaves there. (Under valgrind the same code runs from its
 * SIGILL handler; cost_hosts.sh checks that path end to end.) */
#include "../../run/instruction_emulator.c"

#include <stdio.h>

static int failures;

static void expect(int condition, const char* what) {
  if (!condition) {
    printf("emulator_test: FAILED: %s\n", what);
    ++failures;
  }
}

int main(void) {
  greg_t g[NGREG];
  const uint64_t aux = tsc_aux();

  static const unsigned char rdtscp[] = {0x0f, 0x01, 0xf9, 0x90};
  memset(g, 0, sizeof g);
  g[REG_RIP] = (greg_t)rdtscp;
  g[REG_RAX] = g[REG_RDX] = g[REG_RCX] = -1;
  const uint64_t before = __rdtsc();
  expect(emulate(g) == 1, "RDTSCP is emulated");
  const uint64_t ticks = ((uint64_t)g[REG_RDX] << 32) | (uint64_t)g[REG_RAX];
  expect(ticks >= before && ticks <= __rdtsc(), "RDTSCP's EDX:EAX is the time-stamp counter");
  expect((uint64_t)g[REG_RAX] <= 0xffffffffu && (uint64_t)g[REG_RDX] <= 0xffffffffu, "RDTSCP clears the upper halves");
  expect((uint64_t)g[REG_RCX] == aux, "RDTSCP's ECX is IA32_TSC_AUX as Linux sets it");
  expect(g[REG_RIP] == (greg_t)(rdtscp + 3), "RDTSCP is three bytes long");

  static const unsigned char rdpid_rax[] = {0xf3, 0x0f, 0xc7, 0xf8};
  memset(g, 0, sizeof g);
  g[REG_RIP] = (greg_t)rdpid_rax;
  g[REG_RAX] = -1;
  expect(emulate(g) == 1 && (uint64_t)g[REG_RAX] == aux && g[REG_RIP] == (greg_t)(rdpid_rax + 4), "RDPID %rax");

  static const unsigned char rdpid_r13[] = {0xf3, 0x41, 0x0f, 0xc7, 0xfd};
  memset(g, 0, sizeof g);
  g[REG_RIP] = (greg_t)rdpid_r13;
  g[REG_R13] = -1;
  expect(emulate(g) == 1 && (uint64_t)g[REG_R13] == aux && g[REG_RBP] == 0 && g[REG_RIP] == (greg_t)(rdpid_r13 + 5),
         "RDPID %r13 (REX.B)");

  static const unsigned char others[][6] = {
      {0x62, 0xf1, 0x7d, 0x48, 0xef, 0xc0}, /* vpxord: AVX-512 */
      {0x0f, 0x0b},                         /* ud2 */
      {0x0f, 0xc7, 0xf8},                   /* rdseed %eax (no F3): not RDPID */
      {0xf3, 0x0f, 0xc7, 0x38},             /* a memory operand: not RDPID */
  };
  for (unsigned i = 0; i < sizeof others / sizeof others[0]; ++i) {
    memset(g, 0, sizeof g);
    g[REG_RIP] = (greg_t)others[i];
    expect(emulate(g) == 0 && g[REG_RIP] == (greg_t)others[i] && g[REG_RAX] == 0, "another instruction is left alone");
  }
  if (failures == 0) printf("emulator_test: RDTSCP and RDPID emulated, other instructions left alone\n");
  return failures == 0 ? 0 : 1;
}
