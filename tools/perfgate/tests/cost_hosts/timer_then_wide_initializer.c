/* A library whose initializer reads the time-stamp counter (RDPID, which perfgate emulates) and then runs an
 * AVX-512 instruction (which nobody emulates): the run with the emulator gets past the first and stops at the second,
 * and the cost runner must name the second, not the first that valgrind also reported. */
#include <stdint.h>

uint64_t timer_then_wide_processor;

__attribute__((constructor)) static void read_the_timer_then_clear_a_wide_register(void) {
  uint64_t processor;
  __asm__ volatile(".byte 0xf3, 0x0f, 0xc7, 0xf8" : "=a"(processor)); /* rdpid %rax */
  timer_then_wide_processor = processor;
  __asm__ volatile(".byte 0x62, 0xf1, 0x7d, 0x48, 0xef, 0xc0" ::: "xmm0"); /* vpxord %zmm0, %zmm0, %zmm0 */
}
