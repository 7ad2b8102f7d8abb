
/* morphtrace's ground truth (an instrumented copy; recorder/src/corpus/truth.rs): each point's
   first @HITS@ runs print one line, "mt-truth " and JSON {point, line, hit, seq, site, values, typed},
   the values read by the call at the start of the point's line. Never inlined, so that a
   breakpoint on a point's line stops before the values are read, in the program's frame.
   __mt_truth_seq counts the points run so far: a debugger paused before a point shows it one
   less than the point's record says, so that the judge knows which run a pause precedes. site is
   where the call was made, as an offset from this function (the same in every run of one
   binary): runs of one point at different sites ran different copies of the line's code. */
#include <stdarg.h>
#include <stdio.h>
static unsigned long long __mt_truth_seq;
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noinline, noipa))
#else
__attribute__((noinline))
#endif
void __mt_truth(int point, int line, const char *values, ...) {
  /* Inside the function, so that no debugger lists it among the program's globals. */
  static unsigned __mt_truth_hits[@POINTS@ + 1];
  va_list ap;
  __mt_truth_seq++;
  if (__mt_truth_hits[point] >= @HITS@)
    return;
  __mt_truth_hits[point]++;
  printf("mt-truth {\"point\":%d,\"line\":%d,\"hit\":%u,\"seq\":%llu,\"site\":%lld,\"values\":",
         point, line, __mt_truth_hits[point], __mt_truth_seq,
         (long long)((char *)__builtin_return_address(0) - (char *)__mt_truth));
  va_start(ap, values);
  vprintf(values, ap);
  va_end(ap);
  printf(",\"typed\":true}\n");
  fflush(stdout);
}
