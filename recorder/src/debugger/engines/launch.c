/* The launcher of the programs morphtrace debugs natively: `launch NAME PROGRAM ARGS...` runs
   PROGRAM with ARGS, NAME as its argv[0] and a fixed environment, and has it killed when its
   parent (gdb, LLDB's server) dies. gdb runs it as its exec wrapper, LLDB follows it through
   its exec.

   A C program's uninitialized locals show what earlier code left on the stack, and the stack
   begins with the program's arguments, environment and file name: so that those are the same
   bytes under every debugger and in every run, argv[0] is NAME (each engine builds each
   session's binary at a path of its own), the environment is ENVIRONMENT below (gdb adds LINES
   and COLUMNS, LLDB passes its own), and the file is executed by descriptor (the kernel then
   records "/dev/fd/N" as its name, not the path). One exec, as gdb's wrapper must make:
   setpriv(1) kills with the parent but cannot do the rest, and bash's `exec -a` would be a
   second exec. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

static char *ENVIRONMENT[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", NULL};

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: launch NAME PROGRAM [ARGS...]\n");
    return 127;
  }
  pid_t parent = getppid();
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
    perror("launch: prctl");
    return 127;
  }
  /* The parent died before the signal was armed. */
  if (getppid() != parent)
    return 127;
  int program = open(argv[2], O_RDONLY | O_CLOEXEC);
  if (program < 0) {
    perror(argv[2]);
    return 127;
  }
  argv[2] = argv[1];
  fexecve(program, argv + 2, ENVIRONMENT);
  perror("launch: fexecve");
  return 127;
}
