#include "csmith.h"
int8_t func_5() {
  for (;;) {
    int32_t l_259[2];
    if (5) {
      if (0)
        break;
      break;
    }
  }
  return 0;
}
int main() 
  {
    
    func_5();
    }

