/* A reader of fixed records that stops at the first sentinel: finish() prints the summary and
   ends the process, as error and end-of-input handlers in C programs often do. */
#include <stdio.h>
#include <stdlib.h>

struct stats {
    long sum;
    int count;
    int max;
};

static void finish(const struct stats *s) {
    printf("count=%d sum=%ld max=%d\n", s->count, s->sum, s->max);
    exit(0);
}

static void add(struct stats *s, int v) {
    s->sum += v;
    s->count += 1;
    if (v > s->max)
        s->max = v;
}

int main(void) {
    static const int records[] = {12, 7, 30, 5, -1, 99, 3};
    struct stats s = {0, 0, 0};
    for (unsigned i = 0; i < sizeof records / sizeof records[0]; i++) {
        if (records[i] < 0)
            finish(&s);
        add(&s, records[i]);
    }
    printf("no sentinel\n");
    return 1;
}
