/* A library whose initializer runs an AVX-512 instruction without asking CPUID first (as code built with
 * -march=native does): valgrind 3.19 decodes no AVX-512 instruction, and perfgate emulates none, so callgrind cannot
 * run a program that loads it; the cost runner must say so as "unavailable", never as a failure of the program. Run
 * only under valgrind, which refuses it before it runs, so the host's CPU need not have AVX-512. */
__attribute__((constructor)) static void clear_a_wide_register(void) {
  __asm__ volatile(".byte 0x62, 0xf1, 0x7d, 0x48, 0xef, 0xc0" ::: "xmm0"); /* vpxord %zmm0, %zmm0, %zmm0 */
}
