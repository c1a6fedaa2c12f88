/* An LD_AUDIT module that perfgate's cost runner puts into a program valgrind stopped at RDTSCP or RDPID, when it runs
 * the program again: it emulates those two instructions, which read the time-stamp counter's auxiliary value.
 * valgrind decodes RDTSCP only where CPUID lists it, and RDPID nowhere (3.19), yet a virtual machine can hide RDTSCP
 * from CPUID while its CPU still runs it, and libraries run both from their initializers (libhwy's timer, reached
 * from LibTorch through OpenCV and libjxl). valgrind answers an instruction it cannot decode with SIGILL to the
 * program; this module's handler, installed before any library of the program is loaded or initialized, writes what
 * the instruction would have written and steps past it. Any other SIGILL takes its default action, so the run fails
 * as it would have without the module.
 *
 * Only la_version is defined: the dynamic loader calls no other hook, and so binds and runs the program as it would
 * without an audit module. The module's own loader namespace does move the layout of what is mapped after it, which
 * is why the cost runner loads it only into a program that needs it. */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#include <x86intrin.h>

/* The value RDTSCP and RDPID read: Linux writes (node << 12) | cpu into IA32_TSC_AUX. */
static uint64_t tsc_aux(void) {
  unsigned cpu = 0, node = 0;
  if (syscall(SYS_getcpu, &cpu, &node, NULL) != 0) return 0;
  return ((uint64_t)(node & 0xfffffu) << 12) | (cpu & 0xfffu);
}

/* The general register a ModRM r/m field (with REX.B) names, as an index into mcontext's gregs. */
static int register_of(unsigned rm) {
  static const int gregs[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
  return gregs[rm & 15u];
}

/* Emulates the instruction at the context's RIP; returns 0 for one it does not know. */
static int emulate(greg_t* g) {
  const unsigned char* p = (const unsigned char*)g[REG_RIP];
  if (p[0] == 0x0f && p[1] == 0x01 && p[2] == 0xf9) { /* RDTSCP */
    const uint64_t tsc = __rdtsc();
    g[REG_RAX] = (greg_t)(tsc & 0xffffffffu);
    g[REG_RDX] = (greg_t)(tsc >> 32);
    g[REG_RCX] = (greg_t)tsc_aux();
    g[REG_RIP] += 3;
    return 1;
  }
  if (p[0] == 0xf3) { /* RDPID r64: F3 [REX] 0F C7 /7, register operand */
    unsigned length = 1, rex = 0;
    if ((p[1] & 0xf0) == 0x40) rex = p[length++];
    if (p[length] == 0x0f && p[length + 1] == 0xc7 && (p[length + 2] & 0xf8) == 0xf8) {
      const unsigned rm = (p[length + 2] & 7u) | ((rex & 1u) << 3);
      g[register_of(rm)] = (greg_t)tsc_aux();
      g[REG_RIP] += length + 3;
      return 1;
    }
  }
  return 0;
}

static void on_illegal_instruction(int signal_number, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  /* Only a SIGILL the CPU (here: valgrind) raised at an instruction; one sent by kill or raise has no instruction. */
  if (info->si_code > 0 && emulate(((ucontext_t*)context)->uc_mcontext.gregs)) {
    errno = saved_errno;
    return;
  }
  /* Not ours: the default action, when the instruction runs again on return, or now for a sent signal. */
  struct sigaction fallback;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigaction(signal_number, &fallback, NULL);
  if (info->si_code <= 0) raise(signal_number);
  errno = saved_errno;
}

/* The loader's first call into an audit module, before it maps the program's libraries. */
unsigned int la_version(unsigned int version) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_illegal_instruction;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGILL, &action, NULL);
  return version;
}
