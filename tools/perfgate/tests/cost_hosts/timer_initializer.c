/* A library whose initializer reads the time-stamp counter as timing libraries do (libhwy's timer runs from one):
 * RDTSCP, which valgrind decodes only where CPUID lists it, and RDPID, which valgrind 3.19 decodes nowhere. Loaded
 * into a program under valgrind without perfgate's instruction emulator, the RDPID (and, where CPUID hides it, the
 * RDTSCP) ends the program with SIGILL before main. */
#include <stdint.h>

uint64_t timer_initializer_ticks;
uint64_t timer_initializer_processor;

__attribute__((constructor)) static void read_the_timer(void) {
  uint32_t low, high, aux;
  __asm__ volatile("rdtscp" : "=a"(low), "=d"(high), "=c"(aux));
  uint64_t processor;
  __asm__ volatile(".byte 0xf3, 0x0f, 0xc7, 0xf8" : "=a"(processor)); /* rdpid %rax */
  timer_initializer_ticks = ((uint64_t)high << 32) | low;
  timer_initializer_processor = processor + aux;
}
