#include "csmith.h"
static int32_t g_2 = 5L;
static uint16_t g_46 = 8UL;
static uint16_t *g_45 = &g_46;
static int32_t *g_89 = &g_2;
static uint32_t g_117 = 4294967286UL;
static uint32_t g_130 = 0x2DBBA470L;
static int64_t g_133[6] = {(-1L),0xC5BE01121825F2AALL,(-1L),(-1L),0xC5BE01121825F2AALL,(-1L)};
static uint32_t *g_216 = &g_130;
static uint32_t * const *g_253 = &g_216;
static uint32_t * const ** const g_252 = &g_253;
static int16_t g_329[10] = {(-3L),(-3L),(-3L),(-3L),(-3L),(-3L),(-3L),(-3L),(-3L),(-3L)};
static int64_t *g_1074 = &g_133[3];
static int8_t g_1393 = (-1L);
static int64_t **g_1478 = &g_1074;
static int64_t ***g_1477 = &g_1478;
static int64_t ****g_1479[5][5][9] = {{{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477}},{{&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,(void*)0},{&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0},{&g_1477,&g_1477,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477}},{{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477}},{{&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,(void*)0},{&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477,&g_1477},{(void*)0,&g_1477,(void*)0,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477},{(void*)0,(void*)0,&g_1477,(void*)0,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477}},{{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477}}};
static uint16_t **g_2064 = &g_45;
static int16_t *g_2134 = &g_329[7];
static volatile uint16_t g_2591[6][1][5] = {{{65528UL,0UL,0UL,65528UL,65528UL}},{{1UL,1UL,1UL,1UL,1UL}},{{65528UL,65528UL,0UL,0UL,65528UL}},{{0x9CE1L,1UL,0x9CE1L,1UL,0x9CE1L}},{{65528UL,0UL,0UL,65528UL,65528UL}},{{1UL,1UL,1UL,1UL,1UL}}};
static volatile uint16_t *g_2590 = &g_2591[4][0][2];
static volatile uint16_t **g_2589 = &g_2590;
static int32_t g_2957[3] = {0x95614AC2L,0x95614AC2L,0x95614AC2L};
static int16_t **g_3005 = &g_2134;
static int16_t *** volatile g_3004 = &g_3005;/* VOLATILE GLOBAL g_3004 */
static int32_t * func_49(uint32_t p_50, int32_t * p_51, uint16_t * p_52, uint32_t p_53, int32_t * p_54);
static uint16_t func_1(void)
{ /* block id: 0 */
 uint8_t l_2932[3][6] = {{0x42L,0x91L,0x91L,0x42L,0x19L,0x42L},{0x42L,0x19L,0x42L,0x91L,0x91L,0x42L},{0xB2L,0xB2L,0x91L,249UL,0x91L,0xB2L}};
 int32_t l_2962 = 0x68882E48L;
 int32_t l_2964 = 3L;
 int32_t l_2969[2];
 uint32_t l_3102[5][6][3] = {{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}},{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}},{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}},{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}},{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}}};
 int64_t *****l_3215 = &g_1479[4][1][6];
 int64_t **l_3219 = &g_1074;
 int64_t *** const l_3218 = &l_3219;
 int64_t *** const *l_3217 = &l_3218;
 int64_t *** const **l_3216 = &l_3217;
 int64_t *** const l_3221 = (void*)0;
 int64_t *** const *l_3220 = &l_3221;
 int8_t *l_3223 = &g_1393;
 int8_t **l_3222 = &l_3223;
 int32_t **l_3226 = &g_89;
 (*l_3226) = func_49(((***g_252) = ((safe_rshift_func_uint16_t_u_u(l_2932[0][2], 6)) == (!(safe_mod_func_int8_t_s_s((safe_sub_func_int16_t_s_s((***g_3004), (((*l_3223) = (((safe_mul_func_int8_t_s_s((safe_lshift_func_int16_t_s_s((((l_2964 != (((*l_3215) = &g_1477) == (l_3220 = ((*l_3216) = &g_1477)))) || l_2932[0][4]) <= ((void*)0 == l_3222)), (safe_lshift_func_uint16_t_u_u((**g_2064), 12)))), 0x2FL)) <= l_2969[0]) , 9L)) < l_2969[1]))), 0x37L))))), &l_2962, (*g_2064), l_3102[3][3][0], &g_2957[0]);
 for (g_117 = 0; (g_117 != 6); g_117++)
 { /* block id: 1447 */
 if (((**l_3226) = (**l_3226)))
 { /* block id: 1450 */
 int32_t *l_3235 = &l_2969[0];
 }
 else
 { /* block id: 1454 */
 }
 }
 return (**g_2589);
}
static int32_t * func_49(uint32_t p_50, int32_t * p_51, uint16_t * p_52, uint32_t p_53, int32_t * p_54)
{ /* block id: 433 */
 return p_51;
}
int main (int argc, char* argv[])
{
 int print_hash_value = 0;
 if (argc == 2 && strcmp(argv[1], "1") == 0) print_hash_value = 1;
 func_1();
}
