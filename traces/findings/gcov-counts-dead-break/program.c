#include "csmith.h"
*const func_2(int8_t *, int16_t );
static int8_t *func_5();
func_1() {
  (func_5());
}
*const func_2(int8_t *, int16_t ) {}
int8_t *func_5() {
  for (;; ) {
    int32_t l_259[2];
    if ((65535UL)) {
      if (0)
        break;
      break;
    }
  }
}
int main() { func_1(); }
