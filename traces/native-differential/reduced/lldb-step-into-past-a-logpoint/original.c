/*
 * This is a RANDOMLY GENERATED PROGRAM.
 *
 * Generator: csmith 2.3.0
 * Git version: 30dccd7
 * Options:   --seed 23
 * Seed:      23
 */

#include "csmith.h"


static long __undefined;

/* --- Struct/Union Declarations --- */
/* --- GLOBAL VARIABLES --- */
static int32_t g_2 = 5L;
static uint16_t g_36 = 65528UL;
static uint16_t g_46 = 8UL;
static uint16_t *g_45 = &g_46;
static int32_t *g_89 = &g_2;
static int32_t ** volatile g_88 = &g_89;/* VOLATILE GLOBAL g_88 */
static int8_t g_112 = 0x5AL;
static uint32_t g_117 = 4294967286UL;
static uint32_t g_130 = 0x2DBBA470L;
static int64_t g_133[6] = {(-1L),0xC5BE01121825F2AALL,(-1L),(-1L),0xC5BE01121825F2AALL,(-1L)};
static int32_t g_138[9] = {3L,8L,3L,3L,8L,3L,3L,8L,3L};
static int64_t g_146[10][5][1] = {{{(-5L)},{(-7L)},{0xDF35B7EE776C1F1CLL},{7L},{(-7L)}},{{1L},{1L},{0xDF35B7EE776C1F1CLL},{0xDF35B7EE776C1F1CLL},{1L}},{{1L},{(-7L)},{7L},{0xDF35B7EE776C1F1CLL},{(-7L)}},{{(-5L)},{(-7L)},{0xDF35B7EE776C1F1CLL},{7L},{(-7L)}},{{1L},{1L},{0xDF35B7EE776C1F1CLL},{0xDF35B7EE776C1F1CLL},{1L}},{{1L},{(-7L)},{7L},{0xDF35B7EE776C1F1CLL},{(-7L)}},{{(-5L)},{(-5L)},{7L},{0xDC0DC4BEA28A71BBLL},{(-5L)}},{{7L},{0L},{7L},{7L},{0L}},{{7L},{(-5L)},{0xDC0DC4BEA28A71BBLL},{7L},{(-5L)}},{{0xC227312B8DC093C8LL},{(-5L)},{7L},{0xDC0DC4BEA28A71BBLL},{(-5L)}}};
static uint64_t g_177 = 18446744073709551607UL;
static uint64_t g_192 = 0xC5A004C85C767CC5LL;
static uint16_t g_205 = 65535UL;
static int32_t ** volatile g_209 = &g_89;/* VOLATILE GLOBAL g_209 */
static uint32_t *g_216 = &g_130;
static uint32_t **g_215[9][7] = {{&g_216,&g_216,&g_216,&g_216,&g_216,&g_216,&g_216},{(void*)0,(void*)0,&g_216,&g_216,&g_216,&g_216,(void*)0},{(void*)0,&g_216,&g_216,&g_216,(void*)0,&g_216,&g_216},{&g_216,&g_216,&g_216,(void*)0,(void*)0,(void*)0,(void*)0},{&g_216,&g_216,&g_216,&g_216,&g_216,&g_216,&g_216},{&g_216,(void*)0,(void*)0,&g_216,(void*)0,&g_216,&g_216},{(void*)0,&g_216,&g_216,&g_216,(void*)0,&g_216,&g_216},{(void*)0,&g_216,(void*)0,(void*)0,&g_216,(void*)0,&g_216},{&g_216,&g_216,&g_216,&g_216,&g_216,&g_216,&g_216}};
static uint32_t * const ** const ** volatile g_250 = (void*)0;/* VOLATILE GLOBAL g_250 */
static uint32_t * const *g_253 = &g_216;
static uint32_t * const ** const g_252 = &g_253;
static uint32_t * const ** const *g_251 = &g_252;
static int8_t g_256 = (-1L);
static uint32_t ****g_265 = (void*)0;
static uint32_t *****g_264 = &g_265;
static int32_t g_278[5][6][8] = {{{0xDBA9F24DL,0xA584EF93L,0x199AC41AL,0x9FE9F1FFL,0xD5CB9FFFL,1L,0x46D697F3L,(-3L)},{0x199AC41AL,0xB061A072L,0xE9D0B991L,0x46D697F3L,0x9FE9F1FFL,1L,0L,0L},{1L,0xA584EF93L,0xC5AFE649L,0L,0xC5AFE649L,0xA584EF93L,1L,0x21502E58L},{0L,0x199AC41AL,(-1L),0x2823ACE9L,0L,2L,0xE9D0B991L,0xD5CB9FFFL},{0x085FCC17L,0xE9D0B991L,0x2823ACE9L,(-3L),0L,0xDBA9F24DL,0L,0L},{0L,0xC5AFE649L,0xD5CB9FFFL,0xD5CB9FFFL,0xC5AFE649L,0L,0L,0x085FCC17L}},{{1L,(-1L),0x085FCC17L,0xA584EF93L,0x9FE9F1FFL,0x8910BCE9L,2L,0xB61AF39CL},{0x199AC41AL,0x2823ACE9L,0L,0xA584EF93L,0xD5CB9FFFL,0x085FCC17L,0xB061A072L,0x085FCC17L},{0xDBA9F24DL,0xD5CB9FFFL,0x46D697F3L,0xD5CB9FFFL,0xDBA9F24DL,0xE9D0B991L,0x9FE9F1FFL,0L},{0x9FE9F1FFL,0x085FCC17L,0x8910BCE9L,(-3L),0L,(-1L),0L,0xD5CB9FFFL},{0x46D697F3L,0L,0x8910BCE9L,0x2823ACE9L,0x21502E58L,0x9FE9F1FFL,0x9FE9F1FFL,0x21502E58L},{0L,0x46D697F3L,0x46D697F3L,0L,0xA584EF93L,0xB61AF39CL,0xB061A072L,0L}},{{0x2823ACE9L,0x8910BCE9L,0L,0x46D697F3L,0xB61AF39CL,0xC5AFE649L,2L,(-3L)},{(-3L),0x8910BCE9L,0x085FCC17L,0x9FE9F1FFL,0L,0xA584EF93L,0L,0x199AC41AL},{0x21502E58L,(-9L),0x21502E58L,0x085FCC17L,0xC5AFE649L,0x199AC41AL,2L,0L},{0x46D697F3L,0L,0x9FE9F1FFL,0xDBA9F24DL,(-9L),0xE9D0B991L,0xC5AFE649L,0x2823ACE9L},{0x46D697F3L,(-1L),0xE9D0B991L,0x8910BCE9L,0xC5AFE649L,0xC5AFE649L,0x8910BCE9L,0xE9D0B991L},{0x21502E58L,0x21502E58L,0xB061A072L,0xD5CB9FFFL,0L,(-1L),0L,(-3L)}},{{0L,0x9FE9F1FFL,0xC5AFE649L,(-1L),0xA584EF93L,0x2823ACE9L,(-9L),(-3L)},{0x9FE9F1FFL,0xE9D0B991L,0xDBA9F24DL,0xD5CB9FFFL,0x46D697F3L,0xD5CB9FFFL,0xDBA9F24DL,0xE9D0B991L},{2L,0xB061A072L,0x46D697F3L,0x8910BCE9L,0xB61AF39CL,0x085FCC17L,0xE9D0B991L,0x2823ACE9L},{(-9L),0xC5AFE649L,(-3L),0xDBA9F24DL,2L,0L,0xE9D0B991L,0L},{0x199AC41AL,0xDBA9F24DL,0x46D697F3L,0x085FCC17L,0x085FCC17L,0x46D697F3L,0xDBA9F24DL,0x199AC41AL},{0x085FCC17L,0x46D697F3L,0xDBA9F24DL,0x199AC41AL,0x21502E58L,0x8910BCE9L,(-9L),0L}},{{0xDBA9F24DL,(-3L),0xC5AFE649L,(-9L),0x199AC41AL,0x8910BCE9L,0L,0xD5CB9FFFL},{0x8910BCE9L,0x46D697F3L,0xB061A072L,2L,0xB061A072L,0x46D697F3L,0x8910BCE9L,0xB61AF39CL},{0xD5CB9FFFL,0xDBA9F24DL,0xE9D0B991L,0x9FE9F1FFL,0L,0L,0xC5AFE649L,0x21502E58L},{(-1L),0xC5AFE649L,0x9FE9F1FFL,0L,0L,0x085FCC17L,2L,2L},{0xD5CB9FFFL,0xB061A072L,0x21502E58L,0x21502E58L,0xB061A072L,0xD5CB9FFFL,0L,(-1L)},{0x8910BCE9L,0xE9D0B991L,(-1L),0x46D697F3L,0x199AC41AL,0x2823ACE9L,0L,0xA584EF93L}}};
static int32_t * volatile g_277 = &g_278[1][1][3];/* VOLATILE GLOBAL g_277 */
static int16_t g_329[10] = {(-3L),(-3L),(-3L),(-3L),(-3L),(-3L),(-3L),(-3L),(-3L),(-3L)};
static int64_t g_330 = 2L;
static int32_t g_345 = 1L;
static int32_t g_347 = 0L;
static int32_t ** volatile g_374 = (void*)0;/* VOLATILE GLOBAL g_374 */
static int32_t ** volatile g_414[9][8] = {{(void*)0,&g_89,(void*)0,&g_89,(void*)0,&g_89,&g_89,&g_89},{&g_89,&g_89,&g_89,&g_89,&g_89,&g_89,(void*)0,&g_89},{&g_89,&g_89,(void*)0,&g_89,(void*)0,&g_89,(void*)0,&g_89},{(void*)0,(void*)0,&g_89,&g_89,&g_89,&g_89,&g_89,&g_89},{&g_89,&g_89,&g_89,&g_89,(void*)0,&g_89,&g_89,&g_89},{(void*)0,&g_89,&g_89,&g_89,&g_89,&g_89,(void*)0,(void*)0},{&g_89,&g_89,&g_89,&g_89,&g_89,&g_89,&g_89,&g_89},{&g_89,&g_89,&g_89,&g_89,&g_89,(void*)0,(void*)0,(void*)0},{&g_89,&g_89,&g_89,&g_89,&g_89,&g_89,&g_89,(void*)0}};
static volatile int16_t g_416 = 6L;/* VOLATILE GLOBAL g_416 */
static uint32_t ** const *g_430 = &g_215[6][1];
static uint32_t ** const **g_429[1] = {&g_430};
static uint32_t ** const ***g_428 = &g_429[0];
static uint64_t *g_502 = (void*)0;
static uint16_t g_518 = 0UL;
static int32_t ** volatile g_547 = &g_89;/* VOLATILE GLOBAL g_547 */
static volatile uint32_t g_573 = 0xE1FB0007L;/* VOLATILE GLOBAL g_573 */
static uint8_t g_602[1] = {1UL};
static uint8_t *g_601[1][7] = {{&g_602[0],&g_602[0],&g_602[0],&g_602[0],&g_602[0],&g_602[0],&g_602[0]}};
static uint8_t g_616 = 0xDDL;
static volatile int8_t g_658 = 0x5FL;/* VOLATILE GLOBAL g_658 */
static uint8_t g_703 = 0UL;
static int32_t * volatile g_710[5] = {&g_278[4][5][5],&g_278[4][5][5],&g_278[4][5][5],&g_278[4][5][5],&g_278[4][5][5]};
static uint32_t g_904 = 0x384D1CB5L;
static uint32_t g_937 = 0UL;
static int32_t * volatile g_951 = &g_278[1][1][3];/* VOLATILE GLOBAL g_951 */
static int32_t * volatile g_954 = (void*)0;/* VOLATILE GLOBAL g_954 */
static int32_t * volatile g_955 = &g_138[2];/* VOLATILE GLOBAL g_955 */
static int32_t *g_979 = &g_345;
static int32_t ** volatile g_1030[8] = {&g_89,&g_89,&g_89,&g_89,&g_89,&g_89,&g_89,&g_89};
static int32_t ** volatile g_1031 = &g_89;/* VOLATILE GLOBAL g_1031 */
static int32_t * volatile g_1059 = &g_138[1];/* VOLATILE GLOBAL g_1059 */
static int64_t *g_1074 = &g_133[3];
static int64_t * volatile *g_1073 = &g_1074;
static const int64_t ***g_1137 = (void*)0;
static int32_t ** volatile g_1138 = (void*)0;/* VOLATILE GLOBAL g_1138 */
static int32_t g_1173 = 0x08CE1243L;
static int32_t * volatile g_1237 = (void*)0;/* VOLATILE GLOBAL g_1237 */
static int32_t * volatile g_1238 = &g_138[8];/* VOLATILE GLOBAL g_1238 */
static int32_t * volatile g_1245 = &g_138[1];/* VOLATILE GLOBAL g_1245 */
static int8_t g_1393 = (-1L);
static uint32_t g_1394 = 0x958353DEL;
static int32_t **g_1410[1] = {&g_979};
static int64_t **g_1478 = &g_1074;
static int64_t ***g_1477 = &g_1478;
static int64_t ****g_1476 = &g_1477;
static int64_t ****g_1479[5][5][9] = {{{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477}},{{&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,(void*)0},{&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0},{&g_1477,&g_1477,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477}},{{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477}},{{&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,(void*)0},{&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477,&g_1477},{(void*)0,&g_1477,(void*)0,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477,&g_1477},{(void*)0,(void*)0,&g_1477,(void*)0,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477}},{{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477},{&g_1477,&g_1477,(void*)0,(void*)0,&g_1477,&g_1477,(void*)0,&g_1477,&g_1477},{&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477,&g_1477}}};
static volatile uint8_t g_1488 = 0x13L;/* VOLATILE GLOBAL g_1488 */
static volatile int32_t g_1559 = 0x08C9418BL;/* VOLATILE GLOBAL g_1559 */
static volatile int32_t *g_1558 = &g_1559;
static uint16_t g_1591 = 0x3C63L;
static uint64_t * const *g_1715 = (void*)0;
static uint64_t * const **g_1714[8][1] = {{&g_1715},{&g_1715},{&g_1715},{&g_1715},{&g_1715},{&g_1715},{&g_1715},{&g_1715}};
static volatile int16_t *g_1913[2] = {(void*)0,(void*)0};
static volatile int16_t ** volatile g_1912 = &g_1913[0];/* VOLATILE GLOBAL g_1912 */
static const uint32_t **g_1980 = (void*)0;
static const uint32_t ***g_1979 = &g_1980;
static uint32_t g_2062[7][6][2] = {{{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL}},{{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL}},{{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL}},{{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL}},{{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL}},{{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL}},{{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL},{1UL,1UL}}};
static uint16_t **g_2064 = &g_45;
static uint16_t **g_2065 = &g_45;
static uint64_t * const *** volatile g_2066 = &g_1714[6][0];/* VOLATILE GLOBAL g_2066 */
static int16_t *g_2134 = &g_329[7];
static volatile int8_t g_2158 = 0xA0L;/* VOLATILE GLOBAL g_2158 */
static const int16_t g_2245 = 0x4A04L;
static uint8_t ** volatile g_2276[8] = {&g_601[0][3],&g_601[0][3],&g_601[0][3],&g_601[0][3],&g_601[0][3],&g_601[0][3],&g_601[0][3],&g_601[0][3]};
static uint8_t ** volatile *g_2275[8][8] = {{&g_2276[5],(void*)0,&g_2276[5],&g_2276[5],&g_2276[5],&g_2276[5],(void*)0,&g_2276[5]},{&g_2276[5],(void*)0,&g_2276[5],&g_2276[5],&g_2276[3],&g_2276[5],&g_2276[5],&g_2276[5]},{&g_2276[5],(void*)0,&g_2276[5],&g_2276[5],&g_2276[5],&g_2276[5],(void*)0,&g_2276[5]},{&g_2276[5],(void*)0,&g_2276[5],&g_2276[5],&g_2276[3],&g_2276[5],&g_2276[5],&g_2276[5]},{&g_2276[5],(void*)0,&g_2276[5],&g_2276[5],&g_2276[5],&g_2276[5],(void*)0,&g_2276[5]},{&g_2276[5],(void*)0,&g_2276[5],&g_2276[5],&g_2276[3],&g_2276[5],&g_2276[5],&g_2276[5]},{&g_2276[5],(void*)0,&g_2276[5],&g_2276[5],&g_2276[5],&g_2276[5],(void*)0,&g_2276[5]},{&g_2276[5],(void*)0,&g_2276[5],&g_2276[5],&g_2276[3],&g_2276[5],&g_2276[5],&g_2276[5]}};
static uint32_t * const **g_2419 = &g_253;
static uint32_t * const ***g_2418 = &g_2419;
static const int32_t *g_2494[4][3][9] = {{{(void*)0,&g_138[1],&g_138[7],&g_2,&g_2,&g_138[7],&g_2,(void*)0,&g_2},{&g_138[2],&g_138[3],&g_138[7],&g_138[7],&g_138[3],&g_138[2],&g_2,&g_278[2][5][1],&g_138[2]},{&g_138[2],&g_138[1],&g_2,&g_138[2],(void*)0,&g_138[2],(void*)0,&g_278[2][5][1],&g_2}},{{(void*)0,(void*)0,&g_2,&g_138[2],&g_278[1][1][2],&g_138[2],&g_2,(void*)0,(void*)0},{&g_2,&g_278[2][5][1],(void*)0,&g_138[2],(void*)0,&g_138[2],&g_2,&g_138[1],&g_138[2]},{&g_138[2],&g_278[2][5][1],&g_2,&g_138[2],&g_138[3],&g_138[7],&g_138[7],&g_138[3],&g_138[2]}},{{&g_2,(void*)0,&g_2,&g_138[7],&g_2,&g_2,&g_138[7],&g_138[1],(void*)0},{(void*)0,&g_138[1],&g_138[7],&g_2,&g_2,&g_138[7],&g_2,(void*)0,&g_2},{&g_138[2],&g_138[3],&g_138[7],&g_138[7],&g_138[3],&g_138[2],&g_2,&g_278[2][5][1],&g_138[2]}},{{&g_138[2],&g_138[1],&g_2,&g_138[2],(void*)0,&g_138[2],(void*)0,&g_278[2][5][1],&g_2},{(void*)0,(void*)0,&g_2,&g_138[2],&g_278[1][1][2],&g_138[2],&g_2,(void*)0,(void*)0},{&g_2,&g_278[2][5][1],(void*)0,&g_138[2],(void*)0,&g_138[2],&g_2,&g_138[1],&g_138[2]}}};
static uint16_t g_2509 = 65526UL;
static volatile uint16_t g_2591[6][1][5] = {{{65528UL,0UL,0UL,65528UL,65528UL}},{{1UL,1UL,1UL,1UL,1UL}},{{65528UL,65528UL,0UL,0UL,65528UL}},{{0x9CE1L,1UL,0x9CE1L,1UL,0x9CE1L}},{{65528UL,0UL,0UL,65528UL,65528UL}},{{1UL,1UL,1UL,1UL,1UL}}};
static volatile uint16_t *g_2590 = &g_2591[4][0][2];
static volatile uint16_t **g_2589 = &g_2590;
static volatile uint16_t ** const  volatile * const  volatile g_2588[7] = {&g_2589,&g_2589,&g_2589,&g_2589,&g_2589,&g_2589,&g_2589};
static volatile uint16_t ** const  volatile * const  volatile * volatile g_2587 = &g_2588[4];/* VOLATILE GLOBAL g_2587 */
static int32_t ***g_2825[3] = {&g_1410[0],&g_1410[0],&g_1410[0]};
static uint8_t g_2841 = 0UL;
static int32_t ** volatile g_2873 = (void*)0;/* VOLATILE GLOBAL g_2873 */
static int32_t ** volatile g_2875 = &g_89;/* VOLATILE GLOBAL g_2875 */
static int32_t ** volatile g_2885 = (void*)0;/* VOLATILE GLOBAL g_2885 */
static int32_t ** volatile g_2886 = &g_89;/* VOLATILE GLOBAL g_2886 */
static int16_t g_2913 = 4L;
static volatile uint32_t g_2922 = 18446744073709551608UL;/* VOLATILE GLOBAL g_2922 */
static int32_t g_2957[3] = {0x95614AC2L,0x95614AC2L,0x95614AC2L};
static const int16_t g_2994 = 0x668AL;
static int16_t **g_3005 = &g_2134;
static int16_t *** volatile g_3004 = &g_3005;/* VOLATILE GLOBAL g_3004 */
static int32_t g_3035 = (-1L);
static uint64_t **g_3068 = (void*)0;
static uint64_t *** volatile g_3067 = &g_3068;/* VOLATILE GLOBAL g_3067 */
static uint64_t *** volatile * const  volatile g_3066[10][2][7] = {{{(void*)0,&g_3067,&g_3067,&g_3067,&g_3067,(void*)0,&g_3067},{&g_3067,&g_3067,&g_3067,&g_3067,&g_3067,(void*)0,(void*)0}},{{&g_3067,&g_3067,&g_3067,&g_3067,(void*)0,&g_3067,&g_3067},{&g_3067,(void*)0,&g_3067,(void*)0,&g_3067,&g_3067,(void*)0}},{{&g_3067,&g_3067,(void*)0,(void*)0,&g_3067,(void*)0,&g_3067},{&g_3067,&g_3067,&g_3067,&g_3067,&g_3067,&g_3067,&g_3067}},{{&g_3067,(void*)0,(void*)0,&g_3067,&g_3067,&g_3067,(void*)0},{&g_3067,&g_3067,&g_3067,&g_3067,&g_3067,&g_3067,&g_3067}},{{&g_3067,(void*)0,&g_3067,&g_3067,&g_3067,&g_3067,&g_3067},{&g_3067,&g_3067,&g_3067,(void*)0,(void*)0,&g_3067,&g_3067}},{{(void*)0,&g_3067,&g_3067,&g_3067,&g_3067,&g_3067,&g_3067},{(void*)0,(void*)0,&g_3067,(void*)0,&g_3067,(void*)0,&g_3067}},{{&g_3067,&g_3067,(void*)0,&g_3067,(void*)0,&g_3067,&g_3067},{&g_3067,&g_3067,&g_3067,(void*)0,&g_3067,&g_3067,(void*)0}},{{(void*)0,&g_3067,(void*)0,&g_3067,(void*)0,(void*)0,&g_3067},{(void*)0,&g_3067,&g_3067,&g_3067,&g_3067,(void*)0,&g_3067}},{{&g_3067,&g_3067,&g_3067,&g_3067,&g_3067,(void*)0,(void*)0},{&g_3067,&g_3067,&g_3067,&g_3067,(void*)0,&g_3067,&g_3067}},{{&g_3067,(void*)0,&g_3067,(void*)0,&g_3067,&g_3067,(void*)0},{&g_3067,&g_3067,(void*)0,(void*)0,&g_3067,(void*)0,&g_3067}}};
static uint64_t *** volatile * const  volatile * volatile g_3065[7][7] = {{&g_3066[6][1][4],&g_3066[6][1][6],&g_3066[6][1][6],&g_3066[0][1][4],&g_3066[6][1][6],&g_3066[6][1][6],&g_3066[6][1][4]},{&g_3066[7][0][1],&g_3066[0][0][2],(void*)0,(void*)0,&g_3066[6][1][6],&g_3066[6][1][6],&g_3066[6][1][6]},{&g_3066[6][1][6],(void*)0,(void*)0,&g_3066[6][1][6],&g_3066[6][1][6],&g_3066[7][0][2],&g_3066[0][1][4]},{&g_3066[6][1][6],(void*)0,(void*)0,&g_3066[6][1][6],&g_3066[6][1][6],(void*)0,(void*)0},{&g_3066[6][1][6],&g_3066[6][1][4],&g_3066[6][1][6],&g_3066[6][1][6],(void*)0,&g_3066[0][1][4],&g_3066[0][1][4]},{(void*)0,&g_3066[8][1][0],&g_3066[0][0][2],&g_3066[8][1][0],(void*)0,&g_3066[7][0][1],&g_3066[6][1][6]},{&g_3066[6][1][6],&g_3066[6][1][6],&g_3066[7][0][0],&g_3066[6][1][6],&g_3066[7][0][2],&g_3066[6][1][6],&g_3066[7][0][0]}};
static uint64_t ****g_3086 = (void*)0;
static volatile int8_t ** const  volatile g_3184 = (void*)0;/* VOLATILE GLOBAL g_3184 */
static int32_t *g_3231 = &g_138[8];
static int32_t ** volatile g_3230[1][2][1] = {{{&g_3231},{&g_3231}}};
static int32_t ** volatile g_3232 = &g_3231;/* VOLATILE GLOBAL g_3232 */
static int8_t *g_3267 = (void*)0;
static int8_t **g_3266[4][1][7] = {{{&g_3267,&g_3267,&g_3267,&g_3267,&g_3267,&g_3267,&g_3267}},{{&g_3267,&g_3267,&g_3267,&g_3267,&g_3267,&g_3267,&g_3267}},{{&g_3267,&g_3267,&g_3267,&g_3267,&g_3267,&g_3267,&g_3267}},{{&g_3267,&g_3267,&g_3267,&g_3267,&g_3267,&g_3267,&g_3267}}};
static int32_t ** const g_3307 = (void*)0;
static int32_t ** const  volatile * const g_3306[3] = {&g_3307,&g_3307,&g_3307};
static uint16_t ***g_3312 = &g_2064;
static uint32_t g_3322 = 0x13BFCF59L;


/* --- FORWARD DECLARATIONS --- */
static uint16_t  func_1(void);
static int64_t  func_23(const uint8_t  p_24, uint16_t  p_25);
static int8_t  func_31(uint16_t  p_32, int8_t  p_33, const uint32_t  p_34);
static const int32_t  func_43(uint16_t * p_44);
static int32_t * func_49(uint32_t  p_50, int32_t * p_51, uint16_t * p_52, uint32_t  p_53, int32_t * p_54);
static uint32_t  func_58(uint64_t  p_59, int32_t * p_60, int32_t * p_61, int32_t * p_62);
static uint16_t * func_70(int32_t * p_71, int8_t  p_72, const int8_t  p_73, const int8_t  p_74);
static uint8_t  func_77(const uint16_t * p_78);
static const uint16_t * func_79(int32_t * p_80, uint32_t  p_81, uint8_t  p_82, int32_t  p_83);
static int32_t * func_84(int64_t  p_85, int32_t * p_86);


/* --- FUNCTIONS --- */
/* ------------------------------------------ */
/* 
 * reads : g_2 g_36 g_45 g_46 g_205 g_2064 g_1074 g_133 g_1031 g_89 g_904 g_1477 g_1478 g_1476 g_616 g_130 g_138 g_602 g_2419 g_253 g_216 g_256 g_2587 g_146 g_951 g_278 g_2134 g_1059 g_177 g_192 g_329 g_1591 g_112 g_1558 g_2065 g_1394 g_2418 g_2589 g_2590 g_1393 g_2591 g_88 g_547 g_1073 g_2841 g_252 g_703 g_2875 g_428 g_429 g_2886 g_277 g_2913 g_2922 g_955 g_2957 g_1912 g_1913 g_3004 g_209 g_3035 g_979 g_345 g_251 g_2062 g_3005 g_3065 g_2588 g_1559 g_1245 g_117 g_416 g_3184 g_3232
 * writes: g_2 g_36 g_46 g_205 g_1393 g_130 g_177 g_133 g_616 g_602 g_138 g_256 g_329 g_192 g_1591 g_1559 g_658 g_937 g_2591 g_112 g_2825 g_89 g_2913 g_2841 g_3005 g_146 g_345 g_2957 g_3086 g_264 g_117 g_1479 g_278 g_3231 g_2509
 */
static uint16_t  func_1(void)
{ /* block id: 0 */
    uint8_t l_7[5];
    uint32_t ** const * const *l_2819 = (void*)0;
    int32_t * const *l_2822 = &g_979;
    int32_t * const **l_2821 = &l_2822;
    int8_t l_2869 = 1L;
    const int64_t l_2870 = 0x219330E263330DF5LL;
    int32_t l_2888 = 0x9FA774CFL;
    uint16_t ***l_2911 = &g_2065;
    uint16_t ****l_2910[10];
    const int32_t l_2912 = 0L;
    uint8_t l_2932[3][6] = {{0x42L,0x91L,0x91L,0x42L,0x19L,0x42L},{0x42L,0x19L,0x42L,0x91L,0x91L,0x42L},{0xB2L,0xB2L,0x91L,249UL,0x91L,0xB2L}};
    int32_t l_2962 = 0x68882E48L;
    int32_t l_2964 = 3L;
    int32_t l_2966 = 4L;
    int32_t l_2967 = 0xFD3C7A9EL;
    int32_t l_2969[2];
    int16_t l_2995 = 0x2D49L;
    int16_t l_3022 = 0x02AAL;
    int32_t l_3076 = 0x8560A802L;
    uint32_t l_3102[5][6][3] = {{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}},{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}},{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}},{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}},{{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL},{0x6EAC1B62L,0x6EAC1B62L,0x2B80CC2FL}}};
    int32_t ****l_3143 = &g_2825[0];
    const uint16_t l_3191 = 0x9F5FL;
    uint16_t l_3198 = 0x60EFL;
    int64_t *****l_3214 = (void*)0;
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
    uint64_t **l_3257 = &g_502;
    int i, j, k;
    for (i = 0; i < 5; i++)
        l_7[i] = 2UL;
    for (i = 0; i < 10; i++)
        l_2910[i] = &l_2911;
    for (i = 0; i < 2; i++)
        l_2969[i] = (-6L);
    for (g_2 = 0; (g_2 <= (-15)); g_2 = safe_sub_func_int16_t_s_s(g_2, 1))
    { /* block id: 3 */
        uint8_t l_18 = 254UL;
        uint16_t *l_35[7];
        int32_t l_37 = 0x311C3FC0L;
        int32_t l_38 = 0xA42BBD4AL;
        int8_t l_2804 = 0x18L;
        uint8_t *** const l_2840 = (void*)0;
        int32_t l_2871 = 0xB28D5FC3L;
        uint64_t l_2956 = 18446744073709551615UL;
        uint32_t l_2970[5][8] = {{0x41A1C08DL,18446744073709551608UL,18446744073709551606UL,18446744073709551608UL,0x41A1C08DL,18446744073709551615UL,0x41A1C08DL,18446744073709551608UL},{0x5D131674L,18446744073709551608UL,0x5D131674L,1UL,0x41A1C08DL,1UL,0x5D131674L,18446744073709551608UL},{0x41A1C08DL,1UL,0x5D131674L,18446744073709551608UL,0x5D131674L,1UL,0x41A1C08DL,1UL},{0x41A1C08DL,18446744073709551608UL,18446744073709551606UL,18446744073709551608UL,0x41A1C08DL,18446744073709551615UL,0x41A1C08DL,18446744073709551608UL},{0x5D131674L,18446744073709551608UL,0x5D131674L,1UL,0x5D131674L,18446744073709551615UL,18446744073709551606UL,1UL}};
        int32_t l_3008 = 0xAF69C63FL;
        int32_t l_3013 = 0x5B3C614FL;
        int32_t *l_3025 = &g_278[1][3][0];
        uint16_t ***l_3033 = &g_2065;
        uint64_t l_3087 = 1UL;
        uint32_t *l_3100 = &g_117;
        int32_t l_3136 = (-1L);
        int8_t *l_3183 = (void*)0;
        int8_t **l_3182 = &l_3183;
        uint32_t l_3192 = 5UL;
        uint32_t l_3193 = 0x5A2E9CFAL;
        int8_t l_3194 = (-9L);
        int i, j;
        for (i = 0; i < 7; i++)
            l_35[i] = &g_36;
        if ((safe_mul_func_uint8_t_u_u(l_7[0], ((safe_div_func_int64_t_s_s((safe_sub_func_uint8_t_u_u(l_7[0], 5UL)), (safe_div_func_uint16_t_u_u((!(((**g_2064) = (safe_unary_minus_func_int32_t_s((safe_div_func_uint32_t_u_u(l_18, ((-8L) & ((+(safe_unary_minus_func_uint32_t_u((safe_sub_func_int64_t_s_s(func_23((safe_mod_func_uint8_t_u_u(((-1L) & ((safe_unary_minus_func_int32_t_s((((safe_lshift_func_int8_t_s_u(func_31((--g_36), (safe_sub_func_int32_t_s_s(1L, func_43(g_45))), l_7[3]), l_7[0])) , (**g_2589)) ^ l_2804))) && 0x5F11EA0CL)), l_37)), l_18), 5UL))))) != (*g_89)))))))) & l_7[0])), l_18)))) != 0x7058L))))
        { /* block id: 1288 */
            uint32_t l_2816 = 0xA6CE3699L;
            int32_t l_2872 = (-1L);
            int32_t *l_2895 = &g_138[1];
            int64_t ***l_2909 = &g_1478;
            int8_t *l_2946 = (void*)0;
            int32_t l_2958 = (-1L);
            int32_t l_2960 = 0x63B15B97L;
            int32_t l_2965 = 0x323DAE3CL;
            int32_t l_2968 = 0x374BEBE0L;
            int8_t l_2996 = (-1L);
            int16_t ** const l_3001 = &g_2134;
            uint32_t l_3041 = 0x605D717EL;
            uint32_t *****l_3064 = (void*)0;
            uint64_t *** volatile *l_3070 = (void*)0;
            uint64_t *** volatile * const  volatile * volatile l_3069 = &l_3070;/* VOLATILE GLOBAL l_3069 */
            uint16_t **l_3090 = &g_45;
            int64_t l_3091[1];
            uint8_t l_3105 = 255UL;
            int8_t *l_3185 = &l_2996;
            int32_t *l_3195 = &l_2965;
            int i;
            for (i = 0; i < 1; i++)
                l_3091[i] = (-9L);
            (*g_1558) = (**g_88);
            for (g_130 = 0; (g_130 >= 28); g_130++)
            { /* block id: 1292 */
                for (g_36 = 0; (g_36 != 50); g_36++)
                { /* block id: 1295 */
                    int8_t *l_2817 = &g_112;
                    int32_t l_2818 = 0xB233C707L;
                    int32_t ***l_2824[9][10][2] = {{{&g_1410[0],(void*)0},{(void*)0,&g_1410[0]},{(void*)0,(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{(void*)0,&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]}},{{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]}},{{&g_1410[0],&g_1410[0]},{(void*)0,&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{(void*)0,&g_1410[0]},{(void*)0,(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]}},{{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{(void*)0,&g_1410[0]},{(void*)0,&g_1410[0]},{(void*)0,&g_1410[0]},{(void*)0,&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]}},{{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0}},{{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]}},{{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{(void*)0,&g_1410[0]},{(void*)0,&g_1410[0]}},{{(void*)0,&g_1410[0]},{(void*)0,&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{(void*)0,&g_1410[0]},{(void*)0,(void*)0}},{{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{(void*)0,&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]},{&g_1410[0],(void*)0},{&g_1410[0],&g_1410[0]},{&g_1410[0],&g_1410[0]}}};
                    int32_t ****l_2823[8] = {(void*)0,&l_2824[4][5][0],&l_2824[4][5][0],(void*)0,&l_2824[4][5][0],&l_2824[4][5][0],(void*)0,(void*)0};
                    int32_t *l_2826 = (void*)0;
                    int32_t *l_2827 = &l_38;
                    int32_t *l_2828[9][5][5] = {{{&g_138[1],(void*)0,&g_138[8],&g_138[5],&l_37},{(void*)0,(void*)0,&g_138[8],&l_37,&g_138[1]},{&g_278[1][1][3],(void*)0,&g_278[2][0][4],&g_2,(void*)0},{&g_278[3][4][2],&g_278[1][1][3],&l_37,&g_278[1][1][3],&g_278[3][4][2]},{&g_138[7],&l_37,&l_37,&g_138[1],&g_138[5]}},{{&l_37,(void*)0,&g_278[0][5][7],&g_138[6],&g_278[4][1][2]},{&g_278[3][0][7],(void*)0,&l_37,&l_37,&g_138[5]},{&l_37,&g_138[6],(void*)0,&g_278[1][1][3],&g_278[3][4][2]},{&g_138[5],(void*)0,&g_2,(void*)0,(void*)0},{(void*)0,&g_138[1],&g_138[5],&g_278[3][4][2],&g_138[1]}},{{&g_138[2],&g_138[1],&g_138[1],&g_278[2][0][4],&l_37},{(void*)0,&g_278[0][5][7],&g_278[0][5][7],(void*)0,&g_138[8]},{(void*)0,(void*)0,&g_138[6],&l_37,&g_278[2][3][7]},{&g_278[0][5][7],&g_138[1],&g_138[1],(void*)0,&l_37},{&g_138[5],(void*)0,&g_278[2][0][4],&l_37,&l_37}},{{&l_37,&l_37,&g_2,(void*)0,(void*)0},{&g_138[1],&g_278[2][3][7],&l_37,&g_278[2][0][4],&g_278[3][0][7]},{&l_37,&g_278[1][1][3],(void*)0,&g_278[3][4][2],(void*)0},{&l_37,&g_138[5],&g_278[1][1][3],(void*)0,(void*)0},{&g_278[1][1][3],&g_138[1],&g_278[1][1][3],&g_278[1][1][3],(void*)0}},{{&g_278[1][1][3],&g_2,(void*)0,&l_37,&g_138[1]},{(void*)0,(void*)0,&g_278[1][1][3],&g_138[6],(void*)0},{(void*)0,&g_138[1],(void*)0,&g_138[1],&g_278[2][2][5]},{&g_138[1],&g_2,&g_278[1][1][3],&g_278[1][1][3],&g_138[1]},{&g_2,&g_138[1],&g_278[1][1][3],&g_2,&g_278[2][3][7]}},{{&l_37,&g_138[6],(void*)0,&l_37,&g_278[1][1][3]},{&g_138[1],&g_138[2],&l_37,&g_138[5],&l_37},{(void*)0,(void*)0,&g_2,&l_37,&g_138[1]},{(void*)0,&l_37,&g_278[2][0][4],&g_278[1][1][3],&g_138[1]},{&g_278[3][4][2],&g_138[8],&g_138[1],&g_278[1][1][3],&g_278[1][1][3]}},{{&l_37,&l_37,&g_138[6],&g_278[3][0][7],&g_138[5]},{&l_37,(void*)0,&g_278[0][5][7],&g_278[4][1][2],&g_138[6]},{&g_278[3][0][7],&g_138[2],&g_138[1],&l_37,(void*)0},{&l_37,&g_138[6],&g_138[5],&l_37,&g_278[3][4][2]},{(void*)0,&g_138[1],&g_2,&g_2,&g_138[1]}},{{(void*)0,&g_2,(void*)0,&g_278[3][4][2],(void*)0},{(void*)0,&g_138[1],&l_37,&g_278[2][3][7],&l_37},{&g_2,(void*)0,&g_278[0][5][7],&g_2,&l_37},{&g_138[7],&g_278[1][1][3],&g_138[8],(void*)0,&g_138[1]},{&g_2,&l_37,&l_37,&g_138[8],&l_37}},{{&g_278[1][1][3],&g_278[2][0][4],&g_138[1],&g_138[1],&l_37},{&g_278[1][1][3],&g_138[3],&g_138[1],(void*)0,(void*)0},{&g_2,&g_138[2],&g_278[1][1][3],&g_138[2],&g_2},{&l_37,&g_2,&l_37,&g_278[1][1][3],&g_138[8]},{(void*)0,&g_278[1][1][3],&g_278[1][1][3],(void*)0,&g_278[1][1][3]}}};
                    int i, j, k;
                    (*g_1558) = (l_37 = (((l_2816 == (l_2818 |= ((*l_2817) = g_46))) | ((void*)0 != l_2819)) == ((*l_2827) = ((**g_1478) & (safe_unary_minus_func_uint32_t_u((l_2821 != (g_2825[2] = &g_1410[0]))))))));
                }
                return (**g_2065);
            }
            if ((**g_547))
            { /* block id: 1305 */
                int64_t * const ****l_2831 = (void*)0;
                int32_t l_2836 = 0x3CBB9EE7L;
                int32_t *l_2837[4] = {&g_2,&g_2,&g_2,&g_2};
                uint64_t *l_2838 = &g_192;
                uint8_t ** const * const l_2839[4] = {(void*)0,(void*)0,(void*)0,(void*)0};
                uint8_t l_2889 = 0x70L;
                int8_t l_2955 = 0x0EL;
                int16_t l_2959 = 0x5CF6L;
                int32_t **** const l_3020 = (void*)0;
                uint16_t ***l_3034 = &g_2065;
                int32_t l_3049 = 0x6EAEC794L;
                uint32_t ***l_3095 = &g_215[7][1];
                uint32_t ****l_3094 = &l_3095;
                const int64_t l_3101 = (-1L);
                uint8_t l_3150 = 0xFFL;
                int i;
                if ((safe_mod_func_int64_t_s_s(((((void*)0 == l_2831) , (l_38 = (((((0x6059L == ((*g_2134) |= (safe_mod_func_uint32_t_u_u(((**g_253) = 0x2A5844ADL), ((+((((*l_2838) = ((((~l_2836) , &g_2062[2][5][1]) == ((0xF1EA9E84L ^ l_2816) , &g_2062[0][0][0])) && (**g_1073))) , 0xA193CC20L) , 0x4BL)) , l_7[0]))))) == l_7[2]) , l_2839[1]) == l_2840) , g_2841))) > l_18), 0x6E9A64FB97BADF72LL)))
                { /* block id: 1310 */
                    uint16_t l_2844 = 65534UL;
                    int32_t l_2881 = 1L;
                    int32_t l_2887 = 0xAAA01F18L;
                    int32_t *l_2896[10][8][3] = {{{&l_37,&l_2871,&g_138[1]},{(void*)0,&l_2871,&l_37},{&l_37,&l_2881,&l_2881},{&l_37,&l_2881,(void*)0},{(void*)0,&l_2871,&l_2881},{&l_37,&l_2881,&l_37},{&l_37,&g_2,&g_138[1]},{&l_37,&l_2881,&l_38}},{{&l_2871,&l_2871,&l_38},{(void*)0,&l_2881,&l_37},{&l_2871,&l_2881,&g_2},{&l_37,&l_2871,(void*)0},{&l_37,&l_2871,&g_2},{&l_37,&l_2871,&l_37},{(void*)0,&g_2,&l_38},{&l_37,&l_2871,&l_38}},{{&l_37,&l_2871,&g_138[1]},{(void*)0,&l_2871,&l_37},{&l_37,&l_2881,&l_2881},{&l_37,&l_2881,(void*)0},{(void*)0,&l_2871,&l_2881},{&l_37,&l_2881,&l_37},{&l_37,&g_2,&g_138[1]},{&l_37,&l_2881,&l_38}},{{&l_2871,&l_2871,&l_38},{(void*)0,&l_2881,&l_37},{&l_2871,&l_2881,&g_2},{&l_37,&l_2871,(void*)0},{&l_37,&l_2871,&g_2},{&l_37,&l_2871,&l_37},{(void*)0,&g_2,&l_38},{&l_37,&l_2871,&l_38}},{{&l_37,&l_2871,&g_138[1]},{(void*)0,&l_2871,&l_37},{&l_37,&l_2881,&l_2881},{&l_37,&l_2881,(void*)0},{(void*)0,&l_2871,&l_2881},{&l_37,&l_2881,&l_37},{&l_37,&g_2,&g_138[1]},{&l_37,&l_2881,&l_38}},{{&l_2871,&l_2871,&l_38},{(void*)0,&l_2881,&l_37},{&l_2871,&l_2881,&g_2},{&l_37,&l_2871,(void*)0},{&l_37,&l_2871,&g_2},{&l_37,&l_2871,&l_37},{(void*)0,&g_2,&l_38},{&l_37,&l_2871,&l_38}},{{&l_37,&l_2871,&g_138[1]},{(void*)0,&l_2871,&l_37},{&l_37,&l_2881,&l_2881},{&l_37,&l_2881,(void*)0},{(void*)0,&l_2871,&l_2881},{&l_37,&l_2881,&l_37},{&l_37,&g_2,&g_138[1]},{&l_37,&l_2881,&l_38}},{{&l_2871,&l_2871,&l_38},{(void*)0,&l_2881,&l_37},{&l_2871,&l_2881,&g_2},{&l_37,&l_2871,(void*)0},{&l_37,&l_2871,&g_2},{&l_37,&l_2871,&l_37},{(void*)0,&g_2,&l_38},{&l_37,&l_2871,&l_38}},{{&l_37,&l_2871,&g_138[1]},{(void*)0,&l_2871,&l_37},{&l_37,&l_2881,&l_2881},{&l_37,&l_2881,(void*)0},{(void*)0,&l_2871,&l_2881},{&l_37,&l_2881,&l_37},{&l_37,&g_2,&g_138[1]},{&l_37,&l_2881,&l_38}},{{&l_2871,&l_2871,&l_38},{(void*)0,&l_2881,&l_37},{&l_2871,&l_2881,&g_2},{&l_37,&l_2871,(void*)0},{&l_37,&l_2871,&g_2},{&l_37,&l_2871,&l_37},{(void*)0,&g_2,&l_38},{&l_37,&l_2871,&l_38}}};
                    int i, j, k;
                    if ((((safe_mul_func_uint16_t_u_u(0xBB60L, ((l_7[0] && (l_2844 >= (safe_mod_func_int64_t_s_s(((safe_mod_func_uint32_t_u_u(((safe_sub_func_int64_t_s_s(0L, (--(*l_2838)))) , ((safe_sub_func_uint32_t_u_u((safe_mod_func_int64_t_s_s((safe_div_func_int64_t_s_s(((safe_mod_func_int64_t_s_s((safe_mod_func_int32_t_s_s(((safe_add_func_uint32_t_u_u(((***g_252) ^= 2UL), (2UL < (l_2844 | (((safe_div_func_int64_t_s_s(((safe_sub_func_uint8_t_u_u(l_2844, ((l_38 | l_2844) && 0x89C5BE975A884D04LL))) >= (**g_2064)), l_2869)) < l_2870) > g_703))))) & 6UL), (*g_89))), 0xB24C4DC7263428B1LL)) , l_2871), 0xDE1B6EA2B325E895LL)), l_2816)), l_7[0])) == (-2L))), l_2872)) == 8L), 0xC83438ED6AFD203CLL)))) & l_2816))) != l_2872) , (**g_547)))
                    { /* block id: 1313 */
                        int32_t **l_2874 = (void*)0;
                        (*g_2875) = (*g_88);
                    }
                    else
                    { /* block id: 1315 */
                        uint16_t ***l_2878 = &g_2065;
                        uint16_t ****l_2877[4];
                        uint16_t *****l_2876 = &l_2877[2];
                        int32_t l_2882[10] = {0xBFD26AEAL,0xBFD26AEAL,0xBFD26AEAL,0xBFD26AEAL,0xBFD26AEAL,0xBFD26AEAL,0xBFD26AEAL,0xBFD26AEAL,0xBFD26AEAL,0xBFD26AEAL};
                        int i;
                        for (i = 0; i < 4; i++)
                            l_2877[i] = &l_2878;
                        l_2876 = (void*)0;
                        (*g_1558) = (safe_mul_func_uint16_t_u_u((l_2882[0] &= (l_2816 > (l_2881 = (-1L)))), (safe_sub_func_int16_t_s_s(l_18, ((void*)0 == (*g_428))))));
                        (*g_2886) = l_2837[1];
                        l_2889++;
                    }
                    for (g_130 = (-17); (g_130 == 2); ++g_130)
                    { /* block id: 1325 */
                        int32_t **l_2894[9] = {&l_2837[1],&l_2837[1],&l_2837[1],&l_2837[1],&l_2837[1],&l_2837[1],&l_2837[1],&l_2837[1],&l_2837[1]};
                        int i;
                        l_2895 = (void*)0;
                        l_2895 = l_2896[0][7][1];
                    }
                    (*g_1558) = ((*g_1059) |= (+(**g_1073)));
                    g_2913 ^= (safe_rshift_func_uint16_t_u_s((safe_sub_func_uint16_t_u_u((~(safe_mod_func_int64_t_s_s((safe_add_func_uint8_t_u_u(((safe_add_func_uint8_t_u_u(l_2816, (((*g_1476) != l_2909) <= ((void*)0 != &g_1476)))) ^ (*g_2134)), ((*g_277) > (*g_89)))), (((((*g_89) , l_2910[6]) != (void*)0) == l_2912) && l_2804)))), 0x753EL)), 10));
                }
                else
                { /* block id: 1332 */
                    int32_t **l_2923 = &g_979;
                    int32_t l_2937[5][3] = {{1L,1L,1L},{0x7068B208L,0x7068B208L,0x7068B208L},{1L,1L,1L},{0x7068B208L,0x7068B208L,0x7068B208L},{1L,1L,1L}};
                    uint64_t l_2975 = 8UL;
                    int i, j;
                    (*l_2895) = (((safe_mul_func_int16_t_s_s((((safe_rshift_func_int16_t_s_s((safe_rshift_func_int16_t_s_s(((248UL | l_2888) <= (safe_div_func_int64_t_s_s(g_2922, ((**g_1073) |= (l_2870 && ((void*)0 == l_2923)))))), ((safe_add_func_uint64_t_u_u((4294967294UL <= (safe_add_func_uint32_t_u_u((safe_lshift_func_int8_t_s_u((safe_mul_func_uint8_t_u_u(l_2932[0][4], (((safe_lshift_func_uint16_t_u_u(((safe_mul_func_uint8_t_u_u((0UL > 0x4A9BA8BBL), 0UL)) | (*g_2134)), 0)) < l_2937[4][1]) <= (*l_2895)))), 1)), l_37))), (*l_2895))) < l_2937[4][2]))), 3)) ^ 0UL) , 0L), (*g_2134))) <= (*g_2134)) > g_329[2]);
                    for (g_2841 = 0; (g_2841 <= 0); g_2841 += 1)
                    { /* block id: 1337 */
                        int i;
                        (*g_1558) = ((*l_2895) |= 0x93F70743L);
                        if (g_329[(g_2841 + 9)])
                            break;
                        return (**g_2065);
                    }
                    for (g_1591 = 0; (g_1591 != 10); ++g_1591)
                    { /* block id: 1345 */
                        int8_t *l_2948 = &g_1393;
                        int8_t **l_2947 = &l_2948;
                        uint64_t **l_2954[5];
                        uint64_t ***l_2953 = &l_2954[1];
                        int32_t l_2961 = 0x39576292L;
                        int32_t l_2963 = 0x8E4A240EL;
                        uint16_t l_2986 = 65531UL;
                        const int16_t *l_2992[9] = {(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0};
                        const int16_t **l_2991 = &l_2992[6];
                        const int16_t *l_2993 = &g_2994;
                        int i;
                        for (i = 0; i < 5; i++)
                            l_2954[i] = &l_2838;
                        l_2958 = ((4UL && ((safe_lshift_func_int16_t_s_u((safe_sub_func_int32_t_s_s((*g_955), l_2912)), (((*l_2838) |= ((safe_mul_func_int16_t_s_s(((l_2946 != ((*l_2947) = &g_112)) , (4294967288UL < (safe_lshift_func_int16_t_s_u((((l_2937[4][1] >= (safe_rshift_func_int8_t_s_s(((void*)0 != l_2953), l_2955))) < l_2956) , g_2957[0]), l_2870)))), l_2871)) < l_38)) , (*g_45)))) < 0x104BL)) || (-7L));
                        --l_2970[2][1];
                        if ((*l_2895))
                            continue;
                        l_2995 = ((safe_mul_func_int16_t_s_s(l_2975, (safe_rshift_func_int8_t_s_s(0x27L, ((void*)0 == &l_2955))))) >= (safe_div_func_int8_t_s_s((safe_rshift_func_int16_t_s_u((((((safe_mod_func_int8_t_s_s((safe_mod_func_uint8_t_u_u(l_2986, (((1UL <= ((safe_lshift_func_uint16_t_u_s(l_2975, (((((*g_1912) != (l_2993 = ((*l_2991) = l_35[0]))) && 0x4AL) <= l_2975) == 0x28L))) == (**g_1073))) || (*g_45)) ^ g_2841))), 0xDAL)) != l_2871) , (-1L)) & l_2870) <= 0x10FDL), 3)), l_2969[0])));
                    }
                    for (l_2869 = 0; (l_2869 <= 4); l_2869 += 1)
                    { /* block id: 1357 */
                        return l_2996;
                    }
                }
                for (g_130 = 0; (g_130 <= 4); g_130 += 1)
                { /* block id: 1363 */
                    int32_t l_3006[1];
                    uint32_t l_3009 = 4294967295UL;
                    uint32_t l_3046 = 0xC723E486L;
                    uint64_t ***l_3084 = &g_3068;
                    uint64_t ****l_3083 = &l_3084;
                    uint32_t *****l_3108 = &g_265;
                    int16_t **l_3116 = &g_2134;
                    uint16_t l_3147 = 0x9A75L;
                    int i;
                    for (i = 0; i < 1; i++)
                        l_3006[i] = 0x1802F1ABL;
                    if (g_133[g_130])
                        break;
                    if ((safe_rshift_func_uint16_t_u_u((safe_mul_func_uint16_t_u_u(1UL, ((void*)0 != &g_1137))), 14)))
                    { /* block id: 1365 */
                        int16_t **l_3003 = &g_2134;
                        int16_t ***l_3002[4][7][5] = {{{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,(void*)0,&l_3003,&l_3003},{&l_3003,(void*)0,&l_3003,&l_3003,&l_3003},{&l_3003,(void*)0,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,(void*)0,(void*)0,&l_3003,&l_3003}},{{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{(void*)0,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003}},{{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,(void*)0,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,(void*)0,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003}},{{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,(void*)0,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,&l_3003,&l_3003},{&l_3003,&l_3003,&l_3003,(void*)0,&l_3003}}};
                        int32_t l_3007 = 1L;
                        int i, j, k;
                        if (g_133[(g_130 + 1)])
                            break;
                        (*g_3004) = l_3001;
                        ++l_3009;
                    }
                    else
                    { /* block id: 1369 */
                        int8_t l_3012 = 0L;
                        int64_t *l_3021 = &g_146[4][1][0];
                        int32_t **l_3024[6][5][1] = {{{&l_2837[1]},{&g_89},{&g_89},{&l_2837[1]},{(void*)0}},{{&l_2837[1]},{&l_2837[1]},{&l_2837[1]},{(void*)0},{&l_2837[1]}},{{&g_89},{&g_89},{&l_2837[1]},{(void*)0},{&l_2837[1]}},{{&l_2837[1]},{&l_2837[1]},{(void*)0},{&l_2837[1]},{&g_89}},{{&g_89},{&l_2837[1]},{(void*)0},{&l_2837[1]},{&l_2837[1]}},{{&l_2837[1]},{(void*)0},{&l_2837[1]},{&g_89},{&g_89}}};
                        int32_t ***l_3023 = &l_3024[2][3][0];
                        int i, j, k;
                        l_3022 = ((((l_3012 | ((((*g_88) != &g_138[0]) , ((g_133[g_130] & l_3013) > ((l_7[4] & ((*l_3021) &= (safe_add_func_int16_t_s_s((safe_lshift_func_int16_t_s_s((safe_add_func_uint8_t_u_u((((void*)0 != l_3020) , l_3006[0]), l_3006[0])), 7)), (*g_2134))))) || g_133[g_130]))) , (-6L))) , l_3009) != 4UL) != l_3006[0]);
                        (*g_1558) = (((*l_3023) = &l_2837[1]) != (void*)0);
                        if (l_2956)
                            continue;
                        l_3025 = ((*g_88) = (*g_209));
                    }
                    if ((l_2871 &= ((*g_89) && (safe_rshift_func_uint16_t_u_u((~((((*l_3025) < (((**l_2822) ^= ((*l_3025) ^ ((safe_lshift_func_int8_t_s_u(((*l_3025) , (safe_add_func_uint8_t_u_u((l_3033 != l_3034), g_3035))), (safe_unary_minus_func_uint32_t_u((((safe_rshift_func_int16_t_s_u((safe_mul_func_int8_t_s_s(g_2922, (0L < 0x7162L))), 14)) | 0x5791L) ^ (*l_3025)))))) & 3L))) , l_2912)) || (****g_251)) | 0x6251L)), l_3041)))))
                    { /* block id: 1380 */
                        uint32_t l_3063 = 0x041E62BFL;
                        g_2957[0] &= (safe_mul_func_int16_t_s_s((((safe_rshift_func_uint16_t_u_s(((l_3046 != l_2960) , l_2869), (((safe_mul_func_int16_t_s_s(l_3049, (safe_div_func_int32_t_s_s(l_2869, (safe_div_func_int16_t_s_s(6L, ((l_2962 |= (((safe_div_func_int8_t_s_s((safe_mod_func_uint32_t_u_u((+(safe_sub_func_uint16_t_u_u((safe_add_func_uint8_t_u_u(l_3063, ((((****g_1476) = ((&g_251 == l_3064) & g_2062[2][5][1])) <= l_2966) && 0x70AA7ABFEF1EFCFELL))), (***g_3004)))), (*g_89))), l_3009)) || 65535UL) >= l_2964)) && 6UL))))))) <= 0xD62F8722F524F459LL) , (*l_3025)))) , 0x0CL) , (***g_3004)), (*g_45)));
                    }
                    else
                    { /* block id: 1384 */
                        uint64_t *****l_3085[8][7][4] = {{{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083}},{{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083}},{{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083}},{{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083}},{{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083}},{{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083}},{{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083}},{{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083},{&l_3083,&l_3083,&l_3083,&l_3083}}};
                        int32_t l_3088 = 0L;
                        const uint32_t l_3089 = 0xC448962BL;
                        int32_t **l_3092[6][4] = {{&g_89,&g_89,&l_2837[1],&l_2837[1]},{&l_3025,&l_3025,(void*)0,&g_89},{&g_89,&g_89,(void*)0,&g_89},{&l_3025,&g_89,&l_2837[1],(void*)0},{&g_89,&g_89,&g_89,&g_89},{&g_89,&g_89,&l_3025,&g_89}};
                        const uint32_t ****l_3097 = &g_1979;
                        const uint32_t *****l_3096 = &l_3097;
                        int i, j, k;
                        l_3069 = g_3065[3][3];
                        l_3091[0] &= (((safe_sub_func_int32_t_s_s((((((void*)0 != (**g_2587)) , (safe_sub_func_uint32_t_u_u(((safe_unary_minus_func_int64_t_s((****g_1476))) , ((((*g_1558) <= ((((**g_1073) != 0xA0F4B3A86295BDE4LL) || 0xE3BAL) > (l_3076 != (((safe_mul_func_uint8_t_u_u((safe_div_func_int8_t_s_s((((((safe_sub_func_int64_t_s_s((((g_3086 = l_3083) != &g_1714[3][0]) | l_3087), 0x1499216D4BED0BBALL)) || 0xE9L) || 0x9BL) , l_2969[1]) | l_3088), g_602[0])), 8L)) == l_3046) & (*g_2134))))) <= 0x14C6L) > l_3089)), 0xB934CC45L))) , (void*)0) == l_3090), l_3089)) & (-6L)) || l_2969[0]);
                        l_2895 = ((*g_2886) = &l_2960);
                        (*g_1558) = ((((*l_2895) = (*g_1245)) & (+(l_3094 != ((*l_3096) = &g_1979)))) && (((l_3006[0] &= ((g_264 = (void*)0) != (((0L | (**g_2065)) && ((((safe_rshift_func_uint8_t_u_s(l_3046, ((((l_3100 = l_3025) == &l_3009) != l_3101) >= 0xA206D675L))) & 0x6AA1L) >= (*l_2895)) , (*g_1074))) , &l_3094))) , l_3102[3][3][0]) , 0UL));
                    }
                    if ((0xE74AD486FD4CD47CLL <= (((1UL <= (safe_lshift_func_uint16_t_u_u(l_3105, 9))) | (0xD0E6L >= g_133[g_130])) > (safe_mul_func_int64_t_s_s((l_3064 != (l_3108 = &g_265)), (1UL < ((***g_3004) >= 0x54F7L)))))))
                    { /* block id: 1398 */
                        int64_t *l_3130 = &g_146[5][1][0];
                        int32_t l_3135 = 0x7C4EBA86L;
                        l_2969[0] ^= (l_37 = (safe_div_func_int16_t_s_s((safe_unary_minus_func_uint32_t_u(((&l_2967 != (((((((safe_rshift_func_uint8_t_u_s((safe_rshift_func_uint8_t_u_u(((void*)0 != l_3116), (((safe_mul_func_int8_t_s_s(0x49L, (safe_rshift_func_uint16_t_u_s(((~(((safe_lshift_func_uint16_t_u_u(((-1L) >= (safe_add_func_int8_t_s_s((safe_div_func_uint32_t_u_u((((**g_1073) = l_3006[0]) <= (safe_mul_func_uint8_t_u_u((((*l_3130) = 0L) > (((safe_lshift_func_int8_t_s_u((*l_3025), 5)) >= (safe_mod_func_int8_t_s_s(g_602[0], l_3135))) | l_7[0])), l_3091[0]))), (*g_951))), l_3135))), (*g_45))) , l_2964) ^ 0xB5D5L)) < g_1394), l_3091[0])))) || (*g_2134)) != l_3136))), 4)) && 0x0D1D435FL) == (-1L)) ^ 2UL) > (-1L)) || (*g_1245)) , (void*)0)) ^ 18446744073709551615UL))), 0x710CL)));
                        if (l_3006[0])
                            break;
                    }
                    else
                    { /* block id: 1404 */
                        (*g_1558) &= (safe_add_func_int16_t_s_s(0xCA72L, l_2966));
                    }
                    for (g_117 = 0; (g_117 <= 4); g_117 += 1)
                    { /* block id: 1409 */
                        int32_t ****l_3145 = &g_2825[2];
                        int32_t *****l_3144 = &l_3145;
                        int64_t l_3146[6][9] = {{0L,0x0599BE62855D8F0CLL,0L,1L,0x1FA08B3AD7217D80LL,0x1FA08B3AD7217D80LL,1L,0L,0x0599BE62855D8F0CLL},{(-1L),1L,(-5L),0x86147911D44CB9B0LL,0x86147911D44CB9B0LL,(-5L),1L,(-1L),1L},{0L,1L,0x1FA08B3AD7217D80LL,0x1FA08B3AD7217D80LL,1L,0L,0x0599BE62855D8F0CLL,0L,1L},{1L,0x6D22914A1052EB15LL,0x6D22914A1052EB15LL,1L,0x2AE239AAAE83115CLL,(-5L),0x2AE239AAAE83115CLL,1L,0x6D22914A1052EB15LL},{(-1L),(-1L),0x0599BE62855D8F0CLL,1L,0x00F3F8824C140C47LL,1L,0x0599BE62855D8F0CLL,(-1L),(-1L)},{0x6D22914A1052EB15LL,1L,0x2AE239AAAE83115CLL,(-5L),0x2AE239AAAE83115CLL,1L,0x6D22914A1052EB15LL,0x6D22914A1052EB15LL,1L}};
                        int i, j, k;
                        (*g_1558) = ((*g_1059) = (l_3136 ^= (safe_add_func_uint8_t_u_u((safe_add_func_uint16_t_u_u(((g_278[g_117][g_130][(g_117 + 2)] , &g_2825[2]) == ((*l_3144) = (l_3143 = &g_2825[0]))), g_278[g_117][g_130][(g_117 + 2)])), g_133[g_130]))));
                        (*g_1558) ^= g_278[g_130][g_130][(g_117 + 3)];
                        (*g_1558) ^= 0L;
                        --l_3147;
                    }
                }
                if (l_2960)
                    break;
                return l_3150;
            }
            else
            { /* block id: 1422 */
                int32_t l_3177[8][3][3] = {{{(-1L),0L,0xC303D5AEL},{(-7L),0L,0L},{0x14026F34L,0L,0x17BAE9CBL}},{{(-1L),0L,0xC303D5AEL},{(-7L),0L,0L},{0x14026F34L,0L,0x17BAE9CBL}},{{(-1L),0L,0xC303D5AEL},{(-7L),0L,0L},{0x14026F34L,0L,0x17BAE9CBL}},{{(-1L),0L,0xC303D5AEL},{(-7L),0L,0L},{0x14026F34L,0L,0x17BAE9CBL}},{{(-1L),0L,0xC303D5AEL},{(-7L),0L,0L},{0x14026F34L,0L,0x17BAE9CBL}},{{(-1L),0L,0xC303D5AEL},{(-7L),0L,0L},{0x14026F34L,0L,0x17BAE9CBL}},{{(-1L),0L,0xC303D5AEL},{(-7L),0L,0L},{0x14026F34L,0L,0x17BAE9CBL}},{{(-1L),0L,0xC303D5AEL},{(-7L),0L,0L},{0x14026F34L,0L,0x17BAE9CBL}}};
                int i, j, k;
                (*g_1558) &= ((*l_2895) = ((*l_3025) ^ 9L));
                g_2957[0] &= ((safe_sub_func_int32_t_s_s((safe_mod_func_uint8_t_u_u((g_416 < ((((g_112 = (~(*l_2895))) ^ (safe_sub_func_int32_t_s_s((safe_rshift_func_uint8_t_u_s((*l_2895), 4)), (safe_sub_func_int32_t_s_s((safe_add_func_int64_t_s_s(((void*)0 == &g_45), (safe_mul_func_int8_t_s_s((safe_sub_func_uint8_t_u_u((safe_rshift_func_int16_t_s_s(((**l_3001) = (safe_mul_func_int8_t_s_s((((*l_2895) & (((safe_div_func_int32_t_s_s((((*g_216) = (*l_3025)) , ((safe_mod_func_int32_t_s_s((0x4BL | (!(l_3177[6][0][1] < l_3177[3][1][0]))), l_2966)) || 0x22D3L)), l_7[2])) != (*l_3025)) | 0x7BL)) ^ l_2962), l_3177[0][1][2]))), (*l_3025))), l_3102[2][1][2])), 0UL)))), l_3177[2][2][1]))))) == 2UL) != l_3177[6][0][1])), 0x91L)), 0xA21FFE57L)) ^ l_2969[0]);
            }
            (*l_3195) ^= ((*l_2895) >= ((((((safe_div_func_int64_t_s_s((l_3194 = ((*l_3025) < ((****g_2418) = (safe_div_func_uint64_t_u_u((((((l_3182 == g_3184) ^ ((*l_3185) = 6L)) & 0x6041L) != (safe_rshift_func_uint8_t_u_u(((*l_2895) && l_3022), 6))) != ((((safe_div_func_uint64_t_u_u(((~(****g_1476)) || l_3191), l_3192)) , l_3193) , &g_138[1]) != &g_2)), 0x0195E11438DCA652LL))))), (*l_3025))) & 0xA3525C309306F338LL) , (*l_3025)) , l_7[0]) , l_2932[0][4]) || (-1L)));
        }
        else
        { /* block id: 1434 */
            int32_t *l_3196 = &l_2969[0];
            int32_t *l_3197 = &g_278[1][1][3];
            ++l_3198;
            if (l_2964)
                break;
        }
    }
    (*l_3226) = func_49(((***g_252) = ((safe_rshift_func_uint16_t_u_u(l_2932[0][2], 6)) == (!(safe_mod_func_int8_t_s_s((safe_sub_func_int16_t_s_s((***g_3004), (((*l_3223) = (((safe_mul_func_int8_t_s_s((safe_lshift_func_int16_t_s_s((((l_2964 != (((*l_3215) = &g_1477) == (l_3220 = ((*l_3216) = &g_1477)))) || l_2932[0][4]) <= ((void*)0 == l_3222)), (safe_lshift_func_uint16_t_u_u((**g_2064), 12)))), 0x2FL)) <= l_2969[0]) , 9L)) < l_2969[1]))), 0x37L))))), &l_2962, (*g_2064), l_3102[3][3][0], &g_2957[0]);
    for (g_117 = 0; (g_117 != 6); g_117++)
    { /* block id: 1447 */
        int32_t *l_3229 = &g_278[1][1][3];
        int32_t l_3233[3];
        uint16_t l_3238 = 0xA673L;
        uint16_t l_3249[6] = {0x8BF2L,0x07FAL,0x07FAL,0x8BF2L,0x07FAL,0x07FAL};
        int32_t ***l_3271 = (void*)0;
        uint8_t ** const l_3302 = &g_601[0][6];
        int i;
        for (i = 0; i < 3; i++)
            l_3233[i] = 0x74AE99CAL;
        (*g_89) = 0xE5C226D4L;
        if (((**l_3226) = (**l_3226)))
        { /* block id: 1450 */
            int32_t *l_3234 = &l_2964;
            int32_t *l_3235 = &l_2969[0];
            int32_t *l_3236 = (void*)0;
            int32_t *l_3237[1][7] = {{&g_2957[1],&g_2957[1],&g_2957[1],&g_2957[1],&g_2957[1],&g_2957[1],&g_2957[1]}};
            int i, j;
            (*g_3232) = ((*l_3226) = l_3229);
            ++l_3238;
        }
        else
        { /* block id: 1454 */
            uint8_t l_3254 = 0UL;
            int32_t l_3259[2];
            uint64_t ***l_3277 = &l_3257;
            uint64_t ****l_3276 = &l_3277;
            int32_t *l_3309 = &g_1173;
            uint64_t l_3329 = 0xED95769037012454LL;
            int i;
            for (i = 0; i < 2; i++)
                l_3259[i] = 4L;
            (*g_1558) = 0x6AF31D60L;
            (*g_89) |= 3L;
            if ((**g_88))
                continue;
            for (g_2509 = 0; (g_2509 <= 2); g_2509 += 1)
            { /* block id: 1460 */
                int32_t l_3243 = 1L;
                int8_t *l_3245 = &g_112;
                uint64_t ***l_3273 = &g_3068;
                uint64_t ****l_3272 = &l_3273;
                int32_t l_3303 = (-1L);
                uint16_t ***l_3311 = (void*)0;
                int i;
            }
        }
    }
    return (**g_2589);
}


/* ------------------------------------------ */
/* 
 * reads : g_133 g_1558
 * writes: g_1559
 */
static int64_t  func_23(const uint8_t  p_24, uint16_t  p_25)
{ /* block id: 1284 */
    int32_t l_2811 = 0x131B35BCL;
    (*g_1558) = (safe_rshift_func_int8_t_s_s((safe_rshift_func_int8_t_s_s(g_133[4], 5)), (safe_lshift_func_int8_t_s_u(0xF5L, 3))));
    return l_2811;
}


/* ------------------------------------------ */
/* 
 * reads : g_1393 g_1591
 * writes: g_1393
 */
static int8_t  func_31(uint16_t  p_32, int8_t  p_33, const uint32_t  p_34)
{ /* block id: 1277 */
    int64_t l_2803[1][4][5] = {{{0x2BDEF2CAB4E1BB80LL,0x2BDEF2CAB4E1BB80LL,0L,0L,0x2BDEF2CAB4E1BB80LL},{0x243E742D095DAD95LL,0xF187EBE4CE77EC12LL,0x243E742D095DAD95LL,0xF187EBE4CE77EC12LL,0x243E742D095DAD95LL},{0x2BDEF2CAB4E1BB80LL,0L,0L,0x2BDEF2CAB4E1BB80LL,0x2BDEF2CAB4E1BB80LL},{0xD4DF319251E16265LL,0xF187EBE4CE77EC12LL,0xD4DF319251E16265LL,0xF187EBE4CE77EC12LL,0xD4DF319251E16265LL}}};
    int i, j, k;
    for (g_1393 = (-17); (g_1393 <= 11); ++g_1393)
    { /* block id: 1280 */
        return g_1591;
    }
    return l_2803[0][1][4];
}


/* ------------------------------------------ */
/* 
 * reads : g_46 g_205 g_2064 g_45 g_1074 g_133 g_1031 g_89 g_904 g_1477 g_1478 g_1476 g_616 g_130 g_138 g_602 g_2419 g_253 g_216 g_256 g_2587 g_146 g_951 g_278 g_2134 g_1059 g_177 g_192 g_329 g_1591 g_112 g_1558 g_2065 g_1394 g_2418 g_2589 g_2590 g_2
 * writes: g_46 g_205 g_1393 g_130 g_177 g_133 g_616 g_602 g_138 g_256 g_329 g_192 g_1591 g_1559 g_658 g_937 g_2591
 */
static const int32_t  func_43(uint16_t * p_44)
{ /* block id: 5 */
    uint16_t l_55 = 8UL;
    int32_t *l_704[2][5][9];
    int32_t l_2547 = 1L;
    uint32_t ***l_2565 = &g_215[5][2];
    uint32_t ** const *l_2568 = (void*)0;
    uint8_t *l_2608 = (void*)0;
    const int32_t *l_2648 = &g_347;
    const int32_t **l_2647 = &l_2648;
    int32_t *l_2650 = &l_2547;
    int64_t *** const l_2665[2] = {(void*)0,(void*)0};
    uint16_t l_2671 = 1UL;
    int16_t l_2688 = 0x1827L;
    int32_t l_2719 = 3L;
    uint16_t ***l_2782 = &g_2065;
    int i, j, k;
    for (i = 0; i < 2; i++)
    {
        for (j = 0; j < 5; j++)
        {
            for (k = 0; k < 9; k++)
                l_704[i][j][k] = &g_2;
        }
    }
lbl_2638:
    for (g_46 = 0; (g_46 == 24); g_46++)
    { /* block id: 8 */
        uint16_t * const l_63 = &l_55;
        int32_t l_64 = (-1L);
        int32_t l_119 = 0xA0C7D0B6L;
        uint16_t **l_877 = &g_45;
        int32_t **l_2546 = &g_89;
    }
    for (g_205 = 0; (g_205 != 20); g_205 = safe_add_func_uint64_t_u_u(g_205, 5))
    { /* block id: 1144 */
        int32_t *l_2550 = &l_2547;
        int32_t **l_2551 = &l_2550;
        uint64_t *l_2563 = (void*)0;
        uint64_t *l_2564 = &g_177;
        uint32_t ****l_2566 = (void*)0;
        uint32_t ****l_2567 = &l_2565;
        int64_t ***l_2569 = &g_1478;
        int16_t l_2580 = 0x5CAAL;
        int32_t l_2615[10][1][7] = {{{0x211777CCL,0x8DBCF43DL,0x211777CCL,1L,1L,0x211777CCL,0x8DBCF43DL}},{{1L,0L,0L,1L,0L,0x6BFC1AC1L,0L}},{{0x211777CCL,1L,1L,0x211777CCL,0x8DBCF43DL,0x211777CCL,1L}},{{0xEBED9F8CL,0xE1C2398CL,1L,1L,1L,0xE1C2398CL,0xEBED9F8CL}},{{0L,1L,0L,1L,0L,0L,1L}},{{0x56ADABFFL,0L,0x56ADABFFL,0x6BFC1AC1L,1L,(-1L),0L}},{{1L,0x8DBCF43DL,0L,0L,0x8DBCF43DL,1L,0L}},{{0L,(-1L),0x56ADABFFL,1L,0xEBED9F8CL,1L,0x56ADABFFL}},{{1L,1L,0x211777CCL,0x8DBCF43DL,0x211777CCL,1L,1L}},{{1L,(-1L),0L,(-1L),1L,0x6BFC1AC1L,0x56ADABFFL}}};
        uint64_t l_2626 = 0x3CD8CF106643CECDLL;
        uint16_t l_2670 = 8UL;
        int32_t *l_2768 = &g_1173;
        int8_t *l_2774[5] = {&g_112,&g_112,&g_112,&g_112,&g_112};
        int i, j, k;
        (*l_2551) = l_2550;
        (*l_2551) = func_49((**l_2551), (*l_2551), (*g_2064), (safe_div_func_int64_t_s_s(((&l_704[0][3][0] == &g_2494[1][2][1]) ^ 0x8CL), (**l_2551))), func_49((safe_div_func_int16_t_s_s((safe_sub_func_int32_t_s_s(((*g_1074) , (safe_mod_func_int16_t_s_s((((g_1393 = (((void*)0 == &g_1714[6][0]) , (-1L))) , (**l_2551)) || 0x9E81A983L), (*l_2550)))), 0L)), (*g_45))), (*g_1031), p_44, (**l_2551), &g_2));
        if ((((safe_unary_minus_func_int32_t_s(((safe_div_func_uint64_t_u_u((**l_2551), ((*l_2564) = (*l_2550)))) || (((((*l_2567) = l_2565) != l_2568) | g_904) >= ((***g_1477) = (*g_1074)))))) , l_2569) != (((void*)0 != (*l_2551)) , (*g_1476))))
        { /* block id: 1151 */
            const uint32_t l_2585 = 0UL;
            int32_t l_2616 = 0x60463D6DL;
            int32_t l_2617 = 0xC7940E89L;
            int32_t l_2618 = 0x5579553EL;
            int32_t l_2619 = 0x6BA643E9L;
            int32_t l_2620[1][8] = {{1L,1L,1L,1L,1L,1L,1L,1L}};
            int32_t l_2622 = 0x42B1A88BL;
            int64_t ***l_2683 = &g_1478;
            uint32_t l_2741 = 4294967293UL;
            uint16_t ***l_2780 = &g_2064;
            uint16_t ****l_2781 = &l_2780;
            int i, j;
            for (g_616 = 0; (g_616 <= 8); g_616 += 1)
            { /* block id: 1154 */
                int8_t l_2586[10] = {0x8CL,0xB2L,0x8CL,0x8CL,0xB2L,0x8CL,0x8CL,0xB2L,0x8CL,0x8CL};
                int32_t l_2621 = (-1L);
                int32_t l_2623 = 0x871033A2L;
                int32_t l_2624 = 5L;
                int32_t l_2625 = 0L;
                int i;
                for (g_130 = 2; (g_130 <= 8); g_130 += 1)
                { /* block id: 1157 */
                    uint8_t *l_2575 = &g_602[0];
                    const int16_t *l_2595 = (void*)0;
                    const int16_t **l_2594[6] = {&l_2595,&l_2595,&l_2595,&l_2595,&l_2595,&l_2595};
                    int i;
                    if ((((!(safe_add_func_uint16_t_u_u(g_138[g_616], ((*l_2550) , ((safe_sub_func_int8_t_s_s(0x1EL, (++(*l_2575)))) || ((safe_mul_func_uint16_t_u_u((((0UL | l_2580) && ((safe_mul_func_int16_t_s_s((((***g_2419) && g_138[g_616]) && 0UL), (((safe_mod_func_int8_t_s_s((0x64BDADBFL && (**g_253)), (**l_2551))) , 0xE8EC02ED1102B47CLL) && 4UL))) & 1L)) & l_2585), 0x7BE3L)) && l_2585)))))) == (*l_2550)) > (*l_2550)))
                    { /* block id: 1159 */
                        if (l_2585)
                            break;
                        return g_138[g_616];
                    }
                    else
                    { /* block id: 1162 */
                        int i;
                        g_138[g_130] ^= l_2586[3];
                    }
                    (**l_2551) = (&g_979 == (void*)0);
                    for (g_256 = 0; (g_256 >= 0); g_256 -= 1)
                    { /* block id: 1168 */
                        uint32_t ***l_2600 = &g_215[6][1];
                        int32_t l_2601[6][5] = {{8L,0x8A015477L,1L,0x6A43EC91L,0x6A43EC91L},{0x30573B80L,0x8A015477L,0x30573B80L,0x3A02C0E1L,0x8A015477L},{0x6A43EC91L,(-4L),0x3A02C0E1L,0x6A43EC91L,0x3A02C0E1L},{0x6A43EC91L,0x6A43EC91L,1L,0x8A015477L,8L},{0x30573B80L,8L,0x3A02C0E1L,0x3A02C0E1L,8L},{8L,(-4L),0x30573B80L,8L,0x3A02C0E1L}};
                        int i, j, k;
                        (*l_2550) |= (g_2587 != (void*)0);
                        (*l_2551) = &l_2547;
                        l_2601[0][2] ^= ((safe_rshift_func_uint8_t_u_u(g_146[(g_256 + 5)][(g_256 + 1)][g_256], ((*l_2575) = ((l_2594[1] != &g_2134) >= (((((*g_2134) = ((safe_div_func_uint32_t_u_u((((&l_55 != p_44) < (250UL && (1UL & (0xA4L ^ (safe_lshift_func_uint8_t_u_u((l_2600 != (void*)0), g_138[g_616])))))) != 0xA79EL), (*g_951))) > 0xACL)) != g_146[(g_256 + 5)][(g_256 + 1)][g_256]) < (**l_2551)) && 0x6F36L))))) , l_2586[3]);
                    }
                    (*g_1059) = (l_2615[4][0][3] ^= ((**l_2551) = ((0xDA68971AE0B602E0LL && (safe_add_func_uint32_t_u_u((*l_2550), (((safe_add_func_uint16_t_u_u((safe_mul_func_int8_t_s_s(0x66L, (7UL > (1UL & ((void*)0 != l_2608))))), ((*l_2550) == ((safe_sub_func_uint32_t_u_u(((safe_rshift_func_uint8_t_u_u((safe_lshift_func_uint16_t_u_u((**l_2551), (*p_44))), 5)) , l_2586[0]), (-6L))) | l_2586[4])))) , (-1L)) | g_138[g_616])))) & 0x457E4930D67B93BDLL)));
                }
                if (l_2585)
                    break;
                l_2626++;
                for (g_177 = 0; (g_177 <= 0); g_177 += 1)
                { /* block id: 1183 */
                    int64_t l_2629 = 1L;
                    uint16_t *l_2637 = &g_1591;
                    for (g_192 = 0; (g_192 <= 0); g_192 += 1)
                    { /* block id: 1186 */
                        l_2629 = 0x693797A3L;
                    }
                    l_2622 = (safe_mul_func_int8_t_s_s((l_2629 != ((*p_44) ^ (((((8UL || (*l_2550)) != (l_2616 <= (l_2629 <= (((~18446744073709551612UL) , (0xC52AL == ((*l_2637) ^= (safe_rshift_func_int16_t_s_s(((*g_2134) &= (l_2624 > l_2621)), 4))))) & g_112)))) && l_2586[3]) , (**l_2551)) , l_2629))), (**l_2551)));
                }
                for (g_177 = 0; (g_177 <= 0); g_177 += 1)
                { /* block id: 1195 */
                    const int32_t l_2653 = 0x62243F12L;
                    (*g_1558) = (**l_2551);
                    if (l_2622)
                        break;
                    for (l_2623 = 0; (l_2623 >= 0); l_2623 -= 1)
                    { /* block id: 1200 */
                        int32_t l_2649 = 0x5EBA0D2AL;
                        if (l_2624)
                            goto lbl_2638;
                        (*g_1558) = ((*l_2550) = (safe_mul_func_int8_t_s_s((*l_2550), (safe_div_func_uint8_t_u_u((safe_add_func_uint16_t_u_u((*l_2550), (((*g_1478) == (((**g_2065) = (0x35E73F7474D1EC7CLL | 0x1C0B50B96490838ALL)) , (*g_1478))) <= (safe_rshift_func_int8_t_s_u((l_2647 != (void*)0), (((-6L) > l_2586[0]) > l_2649)))))), 1UL)))));
                        (*l_2551) = func_49((*l_2550), &l_2649, p_44, g_1394, &l_2649);
                        (*l_2551) = l_2650;
                    }
                    if (((safe_add_func_uint64_t_u_u(l_2618, ((((void*)0 != &g_937) <= (*l_2650)) && (**l_2551)))) && ((**g_2065) = (**g_2064))))
                    { /* block id: 1209 */
                        return l_2617;
                    }
                    else
                    { /* block id: 1211 */
                        return l_2653;
                    }
                }
            }
            for (l_2619 = (-7); (l_2619 <= (-2)); l_2619 = safe_add_func_uint32_t_u_u(l_2619, 1))
            { /* block id: 1218 */
                uint32_t l_2660 = 18446744073709551615UL;
                int8_t *l_2679 = &g_112;
                int64_t ***l_2682 = &g_1478;
                int32_t l_2686 = 0x99044DB0L;
                int32_t l_2687 = 0x70B0497AL;
                int32_t l_2689 = 1L;
                int32_t l_2693 = 0x481875AEL;
                int32_t l_2696 = (-1L);
                int32_t l_2705 = (-1L);
                int32_t l_2707 = 0xAF8E5DCDL;
                int32_t l_2708 = 0x181B4B69L;
                int32_t l_2709 = 0x89FBE724L;
                int32_t l_2712 = 0L;
                uint32_t l_2750 = 4294967290UL;
            }
            (*g_1558) = ((((***l_2683) = 0x222E24D26F049F19LL) || (l_2608 == l_2774[1])) != (l_2619 = ((*l_2564) = (~(((((*l_2650) , (*g_45)) , 6UL) != (((((**l_2551) > ((safe_div_func_uint16_t_u_u(((((safe_sub_func_int16_t_s_s((*g_2134), (((*l_2781) = l_2780) == l_2782))) > l_2741) & 1UL) <= 0UL), l_2741)) > (**l_2551))) , 0x377DL) , l_2617) < (*l_2650))) >= (**g_2065))))));
        }
        else
        { /* block id: 1268 */
            uint8_t l_2783 = 0UL;
            int32_t l_2799 = 0x75136090L;
            int32_t l_2800 = 0L;
            l_2783++;
            for (g_658 = 0; g_658 < 6; g_658 += 1)
            {
                for (g_937 = 0; g_937 < 1; g_937 += 1)
                {
                    for (g_1591 = 0; g_1591 < 5; g_1591 += 1)
                    {
                        g_2591[g_658][g_937][g_1591] = 0x0F4EL;
                    }
                }
            }
            (*g_1558) = (((((****g_2418) || (safe_lshift_func_uint16_t_u_s(((safe_rshift_func_int8_t_s_s((safe_lshift_func_uint8_t_u_s((((*g_2589) != (void*)0) , (l_2783 == (((safe_sub_func_uint8_t_u_u((*l_2650), (l_2783 != ((l_2800 = (l_2799 = ((safe_mul_func_uint8_t_u_u((safe_sub_func_uint32_t_u_u(1UL, (((+((void*)0 == &l_2665[0])) <= 0x6AEDF42DL) , l_2783))), (**l_2551))) & (**l_2551)))) > (*l_2550))))) , l_2800) || (**l_2551)))), 6)), 2)) && 0xEBL), (**l_2551)))) < 0x57L) , (***g_2419)) == 1UL);
        }
    }
    return (*g_89);
}


/* ------------------------------------------ */
/* 
 * reads :
 * writes: g_130
 */
static int32_t * func_49(uint32_t  p_50, int32_t * p_51, uint16_t * p_52, uint32_t  p_53, int32_t * p_54)
{ /* block id: 433 */
    const int64_t *l_884 = (void*)0;
    const int64_t **l_883 = &l_884;
    int32_t l_907 = 0x1D42B124L;
    uint64_t l_921 = 0x0F46C60940992EF4LL;
    uint8_t l_946 = 0x11L;
    uint32_t ***l_948 = &g_215[6][4];
    uint32_t ***l_950 = (void*)0;
    int32_t l_962 = 0L;
    int32_t l_1063 = 0xD6D58ABAL;
    int8_t *l_1081 = &g_256;
    int8_t *l_1082[8] = {&g_112,&g_256,&g_112,&g_256,&g_112,&g_256,&g_112,&g_256};
    uint8_t l_1083 = 1UL;
    int32_t *l_1116[7] = {&g_347,&g_347,&g_347,&g_347,&g_347,&g_347,&g_347};
    int16_t l_1127 = 0x1380L;
    int32_t l_1174 = (-1L);
    int32_t l_1175 = 0x5B43B897L;
    int32_t l_1182 = (-5L);
    int32_t l_1183[7] = {0xD1AADE18L,0xD1AADE18L,0xD1AADE18L,0xD1AADE18L,0xD1AADE18L,0xD1AADE18L,0xD1AADE18L};
    uint32_t l_1189[2][3] = {{0UL,0UL,0UL},{0xA9244DCFL,0xA9244DCFL,0xA9244DCFL}};
    const int32_t *l_1252 = &l_1175;
    const int32_t **l_1251 = &l_1252;
    uint64_t **l_1261 = (void*)0;
    uint64_t *l_1262 = &l_921;
    uint64_t **l_1263 = &g_502;
    int32_t **l_1409 = (void*)0;
    int32_t ***l_1408[6] = {(void*)0,(void*)0,(void*)0,(void*)0,(void*)0,(void*)0};
    int32_t *l_1439 = &l_1183[5];
    int64_t * const **l_1481 = (void*)0;
    int64_t * const ***l_1480 = &l_1481;
    uint8_t l_1486 = 0xC6L;
    uint64_t l_1518[6][2][7] = {{{0UL,0xE9FB4618BADD30CFLL,18446744073709551612UL,0xE0C61E0DB3401A28LL,9UL,0UL,0x811AAAE3E5A02CF5LL},{18446744073709551608UL,0UL,0xF79FC22490725FE8LL,0x377052CBF0874EE8LL,0x7ED4FED1620CB7EDLL,0x377052CBF0874EE8LL,0xF79FC22490725FE8LL}},{{0x7ED4FED1620CB7EDLL,0x7ED4FED1620CB7EDLL,0xDAE27862CF35AD04LL,0UL,0UL,0x377052CBF0874EE8LL,5UL},{18446744073709551615UL,0xDAE27862CF35AD04LL,5UL,0UL,18446744073709551608UL,0UL,0xE9FB4618BADD30CFLL}},{{0x377052CBF0874EE8LL,0x73055B32EB73F94DLL,0UL,5UL,0UL,0x73055B32EB73F94DLL,0x377052CBF0874EE8LL},{9UL,0x377052CBF0874EE8LL,0UL,5UL,0x7ED4FED1620CB7EDLL,0xE9FB4618BADD30CFLL,0UL}},{{0x811AAAE3E5A02CF5LL,18446744073709551612UL,0UL,0UL,9UL,18446744073709551608UL,18446744073709551608UL},{0UL,0UL,0UL,0UL,0UL,18446744073709551615UL,0xDAE27862CF35AD04LL}},{{0xDAE27862CF35AD04LL,0UL,0UL,0x377052CBF0874EE8LL,5UL,0xF79FC22490725FE8LL,9UL},{0UL,18446744073709551612UL,5UL,0xE0C61E0DB3401A28LL,0UL,0UL,0xE0C61E0DB3401A28LL}},{{0xDAE27862CF35AD04LL,0x377052CBF0874EE8LL,0xDAE27862CF35AD04LL,0UL,0xE9FB4618BADD30CFLL,18446744073709551612UL,0xF79FC22490725FE8LL},{0UL,0UL,0x377052CBF0874EE8LL,5UL,0xF79FC22490725FE8LL,9UL,0x73055B32EB73F94DLL}}};
    uint8_t l_1528 = 0x9CL;
    uint16_t l_1556 = 0xCF29L;
    uint32_t l_1582 = 0xA0612F9DL;
    const uint64_t l_1626[3][4] = {{0xD09A6663F979441CLL,0xD09A6663F979441CLL,0xD09A6663F979441CLL,0xD09A6663F979441CLL},{0xD09A6663F979441CLL,0xD09A6663F979441CLL,0xD09A6663F979441CLL,0xD09A6663F979441CLL},{0xD09A6663F979441CLL,0xD09A6663F979441CLL,0xD09A6663F979441CLL,0xD09A6663F979441CLL}};
    uint32_t *l_1639 = &g_130;
    uint32_t l_1658 = 4294967295UL;
    const int32_t l_1684 = 8L;
    int16_t *l_2020 = &l_1127;
    uint16_t **l_2040 = &g_45;
    uint16_t ***l_2039[4][10][1] = {{{&l_2040},{(void*)0},{&l_2040},{&l_2040},{&l_2040},{(void*)0},{&l_2040},{&l_2040},{&l_2040},{&l_2040}},{{&l_2040},{(void*)0},{&l_2040},{&l_2040},{&l_2040},{(void*)0},{&l_2040},{&l_2040},{&l_2040},{&l_2040}},{{&l_2040},{(void*)0},{&l_2040},{&l_2040},{&l_2040},{(void*)0},{&l_2040},{&l_2040},{&l_2040},{&l_2040}},{{&l_2040},{(void*)0},{&l_2040},{&l_2040},{&l_2040},{(void*)0},{&l_2040},{&l_2040},{&l_2040},{&l_2040}}};
    int32_t l_2241 = (-2L);
    uint8_t l_2271 = 0xD3L;
    int32_t l_2292 = 0xDBCCE7B0L;
    int32_t l_2331 = 0x2ECD07D7L;
    uint32_t * const ***l_2420 = &g_2419;
    uint64_t l_2447[6] = {18446744073709551611UL,18446744073709551611UL,18446744073709551611UL,18446744073709551611UL,18446744073709551611UL,18446744073709551611UL};
    uint32_t l_2492 = 0xE26671C1L;
    int8_t l_2523 = 0x5FL;
    int16_t **l_2545 = &g_2134;
    int16_t ***l_2544 = &l_2545;
    int i, j, k;
    for (g_130 = 27; (g_130 < 18); g_130--)
    { /* block id: 436 */
        int64_t **l_881 = (void*)0;
        int64_t ***l_882 = &l_881;
        int32_t l_918 = (-1L);
        int32_t l_922[6][8][1] = {{{(-9L)},{0L},{0xCCE372CDL},{0x1C89E3E2L},{0xA21207C4L},{(-1L)},{0x27A830BCL},{0x27A830BCL}},{{(-1L)},{0xA21207C4L},{0x1C89E3E2L},{0xCCE372CDL},{0L},{(-9L)},{0x2E0EA9C7L},{0x134B6F22L}},{{0xA60B290CL},{0x134B6F22L},{0x2E0EA9C7L},{(-9L)},{0L},{0xCCE372CDL},{0x1C89E3E2L},{0xA21207C4L}},{{(-1L)},{0x27A830BCL},{0x27A830BCL},{(-1L)},{0xA21207C4L},{0x1C89E3E2L},{0xCCE372CDL},{0L}},{{(-9L)},{0x2E0EA9C7L},{0x134B6F22L},{0xA60B290CL},{0x134B6F22L},{0x2E0EA9C7L},{(-9L)},{0L}},{{0xCCE372CDL},{0x1C89E3E2L},{0xA21207C4L},{(-1L)},{0x27A830BCL},{0x27A830BCL},{(-1L)},{0xA21207C4L}}};
        int16_t *l_923 = &g_329[1];
        uint32_t ***l_949 = (void*)0;
        int32_t l_1125 = 0x3FF1A3AEL;
        uint16_t l_1141 = 0xAAA4L;
        uint32_t *l_1168 = (void*)0;
        uint64_t **l_1227 = &g_502;
        int64_t l_1241 = 0xA329866C1FCFC320LL;
        int32_t *l_1257 = &g_1173;
        uint32_t l_1258 = 0xE6E9EBF7L;
        int i, j, k;
    }
    return p_51;
}


/* ------------------------------------------ */
/* 
 * reads : g_112 g_216 g_130
 * writes: g_112
 */
static uint32_t  func_58(uint64_t  p_59, int32_t * p_60, int32_t * p_61, int32_t * p_62)
{ /* block id: 426 */
    for (g_112 = 6; (g_112 >= 1); g_112 -= 1)
    { /* block id: 429 */
        int64_t l_878 = 0xC825F356DD9F11ACLL;
        return l_878;
    }
    return (*g_216);
}


/* ------------------------------------------ */
/* 
 * reads : g_502 g_177 g_89 g_330 g_602 g_138 g_209 g_2 g_45 g_46 g_112 g_345 g_416 g_253 g_216 g_347 g_146 g_205 g_518 g_88 g_703 g_329 g_278 g_117 g_573
 * writes: g_347 g_138 g_345 g_330 g_117 g_112 g_256 g_177 g_329 g_146 g_130 g_703 g_205 g_602 g_278 g_89 g_518
 */
static uint16_t * func_70(int32_t * p_71, int8_t  p_72, const int8_t  p_73, const int8_t  p_74)
{ /* block id: 332 */
    const int32_t *l_706 = &g_278[2][4][5];
    const int32_t **l_705 = &l_706;
    uint64_t **l_712 = &g_502;
    int32_t l_794[1];
    uint32_t ***l_830 = &g_215[5][2];
    uint16_t *l_876[9][6][4] = {{{&g_205,&g_518,&g_205,&g_46},{&g_46,&g_205,&g_205,&g_518},{&g_46,&g_46,&g_46,&g_46},{&g_205,(void*)0,&g_205,&g_205},{&g_205,&g_46,&g_518,&g_205},{&g_46,&g_205,&g_205,&g_46}},{{&g_46,&g_46,(void*)0,&g_205},{(void*)0,&g_205,&g_518,&g_205},{&g_205,&g_205,&g_205,&g_518},{&g_205,&g_46,&g_205,&g_205},{&g_205,&g_518,(void*)0,&g_46},{(void*)0,(void*)0,&g_46,&g_46}},{{&g_205,&g_46,&g_46,&g_205},{&g_46,&g_205,(void*)0,&g_205},{&g_46,&g_205,(void*)0,&g_518},{&g_46,&g_518,(void*)0,&g_205},{&g_518,&g_205,&g_46,&g_46},{&g_46,&g_205,&g_46,&g_46}},{{(void*)0,(void*)0,&g_205,&g_205},{&g_205,(void*)0,(void*)0,(void*)0},{&g_46,&g_518,(void*)0,&g_205},{&g_205,(void*)0,&g_46,(void*)0},{(void*)0,&g_205,&g_46,&g_205},{(void*)0,(void*)0,&g_46,&g_205}},{{&g_205,&g_205,(void*)0,&g_205},{&g_46,(void*)0,(void*)0,(void*)0},{&g_205,&g_46,&g_518,&g_518},{&g_518,&g_205,&g_205,&g_518},{&g_205,&g_46,&g_46,&g_205},{&g_205,&g_205,&g_205,&g_205}},{{&g_46,(void*)0,&g_518,(void*)0},{&g_518,&g_205,&g_205,&g_205},{(void*)0,&g_518,&g_46,&g_46},{&g_205,&g_205,(void*)0,&g_46},{&g_205,&g_205,&g_46,(void*)0},{&g_46,&g_46,&g_205,(void*)0}},{{&g_205,&g_205,&g_46,&g_46},{&g_46,&g_46,&g_205,&g_205},{&g_46,&g_205,&g_46,&g_46},{(void*)0,(void*)0,&g_46,&g_205},{&g_46,&g_518,&g_205,(void*)0},{&g_46,&g_46,&g_518,(void*)0}},{{&g_46,&g_46,(void*)0,(void*)0},{&g_518,&g_518,&g_46,&g_518},{(void*)0,&g_205,&g_518,&g_46},{&g_518,&g_205,&g_518,&g_518},{&g_205,&g_205,&g_46,&g_46},{&g_205,&g_205,(void*)0,&g_518}},{{&g_46,&g_518,&g_205,(void*)0},{&g_46,&g_46,&g_46,(void*)0},{&g_205,&g_46,&g_205,(void*)0},{&g_518,&g_518,(void*)0,&g_205},{&g_46,(void*)0,&g_518,&g_46},{(void*)0,&g_205,&g_518,&g_205}}};
    int i, j, k;
    for (i = 0; i < 1; i++)
        l_794[i] = (-9L);
    (*l_705) = (void*)0;
lbl_740:
    for (g_347 = 0; (g_347 > 12); g_347 = safe_add_func_uint16_t_u_u(g_347, 1))
    { /* block id: 336 */
        int64_t l_709[6][10] = {{0L,0xC17187B9D69CD0A8LL,0L,0L,0xC17187B9D69CD0A8LL,0L,0L,0xC17187B9D69CD0A8LL,0L,0L},{0xC17187B9D69CD0A8LL,0xC17187B9D69CD0A8LL,4L,0xC17187B9D69CD0A8LL,0xC17187B9D69CD0A8LL,4L,0xC17187B9D69CD0A8LL,0xC17187B9D69CD0A8LL,4L,0xC17187B9D69CD0A8LL},{0xC17187B9D69CD0A8LL,0L,0L,0xC17187B9D69CD0A8LL,0L,0L,0xC17187B9D69CD0A8LL,0L,0L,0xC17187B9D69CD0A8LL},{0L,0xC17187B9D69CD0A8LL,0L,0L,0xC17187B9D69CD0A8LL,0L,0L,0xC17187B9D69CD0A8LL,0L,0L},{0xC17187B9D69CD0A8LL,0xC17187B9D69CD0A8LL,4L,0xC17187B9D69CD0A8LL,0xC17187B9D69CD0A8LL,4L,0xC17187B9D69CD0A8LL,0xC17187B9D69CD0A8LL,4L,0xC17187B9D69CD0A8LL},{0xC17187B9D69CD0A8LL,4L,4L,0L,4L,4L,0L,4L,4L,0L}};
        int32_t *l_711 = &g_138[1];
        int i, j;
        (*l_711) = ((*g_502) , ((*g_89) = (l_709[4][4] != (*g_89))));
    }
    for (g_345 = 3; (g_345 <= 8); g_345 += 1)
    { /* block id: 342 */
        uint16_t l_734 = 8UL;
        const uint16_t l_772 = 8UL;
        int32_t l_774 = 0L;
        int32_t l_778 = 0x9BCBF3B8L;
        int32_t l_782 = 7L;
        int32_t l_784 = 0xA14FAD67L;
        int32_t l_785 = 1L;
        int32_t l_786 = 0xE9B8CA6BL;
        int32_t l_789 = 1L;
        int32_t l_791 = 6L;
        int32_t l_792[8] = {0xC2DA02AFL,0xC2DA02AFL,0xC2DA02AFL,0xC2DA02AFL,0xC2DA02AFL,0xC2DA02AFL,0xC2DA02AFL,0xC2DA02AFL};
        int64_t * const l_804[4] = {&g_133[3],&g_133[3],&g_133[3],&g_133[3]};
        uint32_t **l_847 = &g_216;
        uint16_t *l_875 = &g_205;
        int i;
        for (g_330 = 0; (g_330 >= 0); g_330 -= 1)
        { /* block id: 345 */
            uint8_t l_720[5][4][3] = {{{0x56L,255UL,247UL},{0x7AL,2UL,0x7AL},{0x39L,0x34L,0xB1L},{6UL,0x7AL,0x7AL}},{{0xB1L,1UL,247UL},{1UL,6UL,3UL},{0xB1L,1UL,1UL},{6UL,1UL,1UL}},{{0x39L,1UL,0x39L},{0x7AL,6UL,2UL},{0x56L,1UL,0x39L},{2UL,0x7AL,1UL}},{{0x45L,0x34L,1UL},{2UL,2UL,3UL},{0x56L,255UL,247UL},{0x7AL,2UL,0x7AL}},{{0x39L,0x34L,0xB1L},{6UL,0x7AL,0x7AL},{0xB1L,1UL,247UL},{1UL,6UL,3UL}}};
            uint32_t *****l_745 = (void*)0;
            int16_t l_770 = 0xC83DL;
            int32_t l_775 = 0x0C654A05L;
            int32_t l_777 = (-1L);
            int32_t l_779 = 0xC8BA6524L;
            int32_t l_780[2];
            uint32_t l_797 = 18446744073709551612UL;
            int16_t l_828 = 0x6D8CL;
            int32_t *l_852 = &l_779;
            int8_t *l_873 = &g_256;
            uint8_t *l_874[3];
            int i, j, k;
            for (i = 0; i < 2; i++)
                l_780[i] = 1L;
            for (i = 0; i < 3; i++)
                l_874[i] = &l_720[4][3][0];
            for (g_117 = 0; (g_117 <= 8); g_117 += 1)
            { /* block id: 348 */
                uint64_t ** const l_713 = &g_502;
                uint32_t **** const *l_744 = &g_265;
                int32_t l_753 = 0x2F771783L;
                int8_t l_771 = 0x0FL;
                int32_t l_776 = 8L;
                int32_t l_783 = 0xF91EF916L;
                int32_t l_788 = 0xC42A7387L;
                int16_t l_796 = 0xCBD0L;
                int i;
                if (g_602[g_330])
                    break;
                if ((g_138[(g_330 + 7)] &= (l_712 == l_713)))
                { /* block id: 351 */
                    (*l_705) = (*g_209);
                    for (g_112 = 0; (g_112 <= 6); g_112 += 1)
                    { /* block id: 355 */
                        (*l_705) = p_71;
                        if (g_138[(g_330 + 7)])
                            break;
                        (*g_89) &= 0xA9C9CAC1L;
                    }
                }
                else
                { /* block id: 360 */
                    uint8_t l_716 = 0x1EL;
                    int8_t *l_735 = &g_256;
                    int8_t *l_736 = (void*)0;
                    int8_t *l_737 = &g_112;
                    int32_t l_738 = (-6L);
                    int32_t *l_739[5][8] = {{&g_278[1][1][3],&g_138[1],&g_138[(g_330 + 7)],&g_278[1][1][3],&g_138[(g_330 + 7)],&g_278[1][1][3],&g_278[1][1][3],&g_138[(g_330 + 7)]},{(void*)0,&g_138[(g_330 + 7)],&g_138[(g_330 + 7)],(void*)0,&g_138[3],&g_138[1],&g_138[(g_330 + 7)],&g_138[(g_330 + 7)]},{&g_138[(g_330 + 7)],&g_138[(g_330 + 7)],&g_138[4],&g_278[3][0][2],&g_138[(g_330 + 7)],&g_138[6],&g_138[(g_330 + 7)],&g_278[3][0][2]},{&g_138[1],&g_138[(g_330 + 7)],&g_138[1],&g_138[(g_330 + 7)],&g_138[(g_330 + 7)],&g_138[1],&g_138[3],(void*)0},{&g_138[1],&g_138[(g_330 + 7)],&g_278[1][1][3],&g_138[(g_330 + 7)],&g_278[1][1][3],&g_278[1][1][3],&g_138[(g_330 + 7)],&g_278[1][1][3]}};
                    int i, j;
                    g_138[(g_330 + 7)] = ((l_738 |= (safe_mod_func_uint8_t_u_u(l_716, ((*l_737) &= ((~(((safe_lshift_func_int16_t_s_s((0x81L != ((*l_735) = (l_720[4][3][0] >= (+((*p_71) >= (p_74 > (safe_add_func_uint16_t_u_u(((safe_mod_func_uint32_t_u_u(((safe_mod_func_uint32_t_u_u(0UL, l_720[4][3][0])) > ((((safe_rshift_func_uint8_t_u_u((safe_mod_func_uint32_t_u_u(0x8FD8731BL, ((*g_89) &= ((*p_71) , (*p_71))))), l_734)) < (*g_45)) ^ g_138[2]) && 0x91FFL)), p_74)) , 1UL), 2L)))))))), g_138[(g_330 + 7)])) == g_46) == p_74)) < 0L))))) < (-2L));
                    for (g_177 = 0; (g_177 <= 0); g_177 += 1)
                    { /* block id: 368 */
                        int16_t *l_743 = &g_329[4];
                        int64_t *l_749 = &g_146[4][1][0];
                        int32_t l_754 = 0xD95C8C30L;
                        uint32_t l_755[9];
                        int32_t l_773 = 0x204EA309L;
                        int32_t l_781 = (-10L);
                        int32_t l_787 = 0xF8C6990EL;
                        int32_t l_790 = 0x72EB274DL;
                        int32_t l_793 = (-7L);
                        int8_t l_795 = 0x7AL;
                        int i;
                        for (i = 0; i < 9; i++)
                            l_755[i] = 0x47A98B53L;
                        if (g_345)
                            goto lbl_740;
                        (*g_89) ^= ((safe_mod_func_int32_t_s_s(((((*l_743) = g_602[0]) <= (l_744 == (g_138[1] , l_745))) <= p_73), (+(((((**g_253) = (((0x9B145F511C335A00LL < ((*l_749) = 0L)) >= (-9L)) & ((safe_unary_minus_func_int16_t_s(((safe_lshift_func_int8_t_s_s(((l_753 = (((&g_133[3] == (void*)0) > g_416) < l_734)) | p_73), p_74)) , l_754))) & g_138[1]))) | p_74) | (-1L)) == 0UL)))) >= l_755[7]);
                        (*g_89) &= ((((safe_lshift_func_uint8_t_u_s(252UL, 4)) > (safe_lshift_func_int16_t_s_u(((safe_div_func_uint32_t_u_u((safe_mod_func_uint16_t_u_u((p_74 <= ((~(safe_sub_func_int64_t_s_s(((((~5UL) ^ (((((safe_add_func_int8_t_s_s(((*l_737) = ((((g_416 , (p_73 >= ((p_73 <= g_347) && ((void*)0 == &g_251)))) ^ 0xFEL) || g_146[4][1][0]) , (-1L))), l_720[4][3][0])) >= l_770) < 8UL) <= (-10L)) != l_734)) > l_771) > l_771), 18446744073709551615UL))) & p_72)), (*g_45))), l_720[2][0][1])) && 0x610DL), 14))) | (-1L)) ^ l_772);
                        l_797++;
                    }
                }
                for (g_703 = 0; (g_703 <= 0); g_703 += 1)
                { /* block id: 382 */
                    int32_t l_807[3];
                    int32_t l_810 = 0L;
                    uint16_t *l_811 = &g_205;
                    int16_t *l_816[10][10] = {{&l_770,&g_329[7],&g_329[5],&g_329[7],(void*)0,&l_796,&l_796,&l_796,(void*)0,&g_329[7]},{&l_770,&l_796,&l_770,&g_329[7],&g_329[7],&l_796,&g_329[7],&g_329[7],&g_329[5],&g_329[7]},{&l_796,&g_329[7],&g_329[7],&g_329[5],&g_329[7],&g_329[7],&g_329[5],&g_329[7],&g_329[7],&l_796},{&g_329[3],(void*)0,&l_770,&g_329[7],&g_329[5],&g_329[7],(void*)0,&l_796,&l_796,&l_796},{(void*)0,&l_770,&g_329[5],(void*)0,&g_329[5],&l_770,(void*)0,&g_329[7],&g_329[0],&l_796},{&g_329[5],(void*)0,&g_329[9],&g_329[7],&g_329[7],&g_329[7],&g_329[7],&g_329[7],&g_329[7],&g_329[7]},{&g_329[0],(void*)0,(void*)0,&g_329[0],&g_329[7],&g_329[5],(void*)0,&l_796,(void*)0,&g_329[7]},{&l_770,&g_329[7],&g_329[7],(void*)0,(void*)0,&g_329[9],(void*)0,(void*)0,&g_329[7],&g_329[7]},{&g_329[7],&g_329[0],&g_329[7],&g_329[7],(void*)0,&g_329[3],(void*)0,&g_329[7],&l_796,&l_796},{&g_329[0],&l_796,&g_329[3],&g_329[9],&g_329[9],&g_329[3],&l_796,&g_329[0],&g_329[7],(void*)0}};
                    uint32_t ***l_829[5] = {&g_215[6][1],&g_215[6][1],&g_215[6][1],&g_215[6][1],&g_215[6][1]};
                    int i, j;
                    for (i = 0; i < 3; i++)
                        l_807[i] = 0L;
                    if ((((p_74 ^ (safe_rshift_func_uint8_t_u_s((safe_mul_func_int16_t_s_s(((0x8661A277L >= ((l_804[3] == (void*)0) && p_72)) & l_720[3][0][2]), (safe_rshift_func_int16_t_s_s((l_807[2] , (l_753 = ((safe_mul_func_uint16_t_u_u((++(*l_811)), ((((((((((safe_rshift_func_int16_t_s_s((((**l_713) = (*g_502)) && g_138[1]), 14)) , l_792[3]) > p_74) != 4294967295UL) , p_73) >= 0xE1L) & 0x9DL) <= l_810) , (void*)0) != (void*)0))) , 0x19EEL))), p_73)))), g_518))) && g_205) <= p_72))
                    { /* block id: 386 */
                        int32_t *l_817 = &l_779;
                        (*l_817) &= ((*g_89) ^= (*p_71));
                        return &g_205;
                    }
                    else
                    { /* block id: 390 */
                        uint8_t l_818 = 0x4DL;
                        l_818 |= (**g_88);
                    }
                    for (l_779 = 0; (l_779 >= 0); l_779 -= 1)
                    { /* block id: 395 */
                        int32_t l_827[2][3];
                        int32_t *l_831 = &l_780[0];
                        int i, j;
                        for (i = 0; i < 2; i++)
                        {
                            for (j = 0; j < 3; j++)
                                l_827[i][j] = 0xFDE4551DL;
                        }
                        (*l_831) = (l_777 = (+((((g_602[l_779] , g_703) , ((((*g_89) &= l_780[0]) < (((((g_602[g_703] = ((p_74 != p_72) ^ p_73)) , (~(l_775 > (safe_lshift_func_uint8_t_u_u((((l_827[0][0] ^= (safe_lshift_func_int8_t_s_u(((-1L) <= ((safe_sub_func_uint64_t_u_u((p_72 || g_602[l_779]), 1UL)) ^ l_784)), p_72))) >= 0xF7L) != l_810), 6))))) || l_828) > g_329[9]) < l_797)) , p_74)) , l_829[2]) != l_830)));
                        (*l_705) = p_71;
                        if (g_112)
                            goto lbl_740;
                        g_278[1][5][7] &= ((+(((safe_add_func_uint16_t_u_u(((safe_mod_func_uint64_t_u_u((safe_unary_minus_func_int32_t_s((safe_sub_func_uint32_t_u_u((0x7C64F443L ^ ((**l_705) , ((safe_lshift_func_uint8_t_u_s((246UL > (safe_mod_func_uint32_t_u_u((0x51787AF391591260LL & ((l_788 ^= ((((safe_mul_func_uint8_t_u_u(l_796, 0xEBL)) > (!((void*)0 == l_847))) <= ((((safe_mod_func_uint16_t_u_u((*g_45), (*l_831))) <= 0x3B0DEE71L) , &g_192) != (void*)0)) < (**g_88))) , 0x0256AC28B9268C25LL)), p_74))), p_73)) == (*g_89)))), (*l_706))))), 0x0A56D2951BE5DB8FLL)) , 0UL), 0xAC5AL)) , 6L) ^ p_74)) != p_74);
                    }
                }
            }
            l_852 = func_84(((safe_sub_func_uint8_t_u_u(3UL, g_602[g_330])) , 2L), &l_794[0]);
            (*l_705) = (((*g_502) = (safe_add_func_uint16_t_u_u((255UL >= ((safe_div_func_int8_t_s_s(0x78L, 0xF6L)) , ((safe_lshift_func_uint8_t_u_s((p_73 , (l_778 ^= (safe_lshift_func_int8_t_s_u((safe_mul_func_int16_t_s_s((g_573 && (safe_add_func_uint8_t_u_u(((safe_mul_func_int8_t_s_s(g_330, l_791)) > (safe_mod_func_int8_t_s_s(((*l_873) = ((safe_div_func_uint16_t_u_u((safe_mul_func_uint8_t_u_u(l_789, (g_602[g_330] = 1UL))), p_73)) ^ g_573)), 7UL))), g_329[5]))), p_74)), 7)))), 1)) != 0xBC630A0C13E65873LL))), g_138[1]))) , &l_791);
            (*g_89) = (g_138[(g_330 + 3)] = (*p_71));
        }
        for (g_518 = 0; (g_518 <= 6); g_518 += 1)
        { /* block id: 419 */
            return l_875;
        }
    }
    (*g_89) = 0xF56C354FL;
    return l_876[0][2][0];
}


/* ------------------------------------------ */
/* 
 * reads : g_205 g_256 g_345 g_518 g_133 g_416 g_330 g_89 g_347 g_192 g_502 g_177 g_112 g_278 g_130 g_146 g_601 g_277 g_616 g_602 g_46 g_45 g_138 g_329 g_209 g_703
 * writes: g_502 g_518 g_347 g_192 g_205 g_330 g_133 g_278 g_616 g_146 g_329
 */
static uint8_t  func_77(const uint16_t * p_78)
{ /* block id: 229 */
    uint64_t **l_501[4] = {(void*)0,(void*)0,(void*)0,(void*)0};
    int32_t l_515[1][7][9] = {{{0x7BCE973FL,(-1L),0L,0xB9161941L,0x2BC57881L,0xC04338BBL,0xC04338BBL,0x2BC57881L,0xB9161941L},{7L,(-10L),7L,8L,0xCD4F23D3L,(-10L),(-7L),1L,1L},{1L,0x7BCE973FL,0xFDA5666FL,0xC04338BBL,0xFDA5666FL,0x7BCE973FL,1L,0L,0L},{(-7L),(-10L),0xCD4F23D3L,8L,7L,(-10L),7L,8L,0xCD4F23D3L},{0xC04338BBL,0xC04338BBL,0x2BC57881L,0xB9161941L,0L,(-1L),0x7BCE973FL,0L,0x7BCE973FL},{0xCD4F23D3L,0x4BBBFFE4L,(-10L),(-10L),0x4BBBFFE4L,0xCD4F23D3L,0x9D34E321L,1L,(-1L)},{0L,1L,0x2BC57881L,0x2FB84BA4L,1L,1L,0x2FB84BA4L,0x2BC57881L,1L}}};
    uint16_t *l_516 = (void*)0;
    uint16_t *l_517 = &g_518;
    int32_t l_519 = 0x826E0553L;
    int8_t *l_520[7] = {&g_256,&g_256,&g_256,&g_256,&g_256,&g_256,&g_256};
    int32_t l_521 = 3L;
    int32_t *l_522 = &g_278[2][0][3];
    int32_t *l_523[7][6] = {{&l_519,&g_278[2][2][7],(void*)0,&g_278[1][1][3],(void*)0,&g_278[2][2][7]},{(void*)0,&l_519,&g_278[1][1][3],&l_519,&l_519,&g_278[1][1][3]},{(void*)0,(void*)0,&l_519,&g_278[1][1][3],&l_515[0][3][4],&g_278[1][1][3]},{&l_519,(void*)0,&l_519,&g_278[1][1][3],&l_519,&l_519},{&g_278[2][2][7],&l_519,&l_519,&g_278[2][2][7],(void*)0,&g_278[1][1][3]},{&g_278[1][1][3],&g_278[2][2][7],&l_519,&g_278[2][2][7],&g_278[1][1][3],&g_278[1][1][3]},{&g_278[2][2][7],&g_278[1][1][3],&g_278[1][1][3],&g_278[1][1][3],&g_278[1][1][3],&g_278[2][2][7]}};
    uint8_t l_524 = 7UL;
    uint32_t **l_566 = &g_216;
    uint32_t l_666 = 18446744073709551613UL;
    uint16_t l_676 = 1UL;
    int32_t l_688 = 0L;
    int32_t *l_695 = &l_515[0][3][7];
    int i, j, k;
lbl_610:
    (*g_89) = ((((4294967295UL >= ((g_502 = &g_177) == (void*)0)) > (-4L)) == (safe_sub_func_int8_t_s_s(g_205, (l_515[0][5][1] = (safe_mod_func_int8_t_s_s((safe_rshift_func_uint8_t_u_u(g_256, ((((((safe_mul_func_int8_t_s_s((safe_div_func_uint64_t_u_u((l_519 |= (safe_rshift_func_int8_t_s_u(0x03L, (((*l_517) &= (g_345 == (l_515[0][6][6] | l_515[0][6][6]))) ^ g_133[3])))), 0xDB5A0EC59AF8CED8LL)), g_416)) != l_515[0][6][6]) & g_330) & l_515[0][6][6]) , l_519) || 8UL))), l_515[0][6][6])))))) > l_521);
    ++l_524;
    for (g_347 = 5; (g_347 >= 9); g_347 = safe_add_func_uint32_t_u_u(g_347, 3))
    { /* block id: 238 */
        uint16_t l_537 = 65535UL;
        uint64_t *l_555 = &g_192;
        uint32_t ***l_564 = (void*)0;
        int32_t l_582 = 1L;
        uint64_t l_613 = 0x994BE20D5C410A06LL;
        int32_t l_642 = (-8L);
        int64_t *l_643 = &g_146[4][1][0];
        int64_t l_644[4] = {0L,0L,0L,0L};
        int32_t l_647 = (-1L);
        int32_t l_648 = 5L;
        int32_t l_649 = 0xA976CC8AL;
        int32_t l_651 = 0L;
        int32_t l_654 = 0L;
        int32_t l_655 = (-9L);
        int32_t l_657 = 0x03667433L;
        int32_t l_659 = 0xDF5E7335L;
        int32_t l_660 = 2L;
        int32_t l_661 = 0x9166A396L;
        int32_t l_662 = 0xE34B3F2EL;
        int32_t l_663 = 1L;
        int32_t l_664[10];
        int32_t l_665[7][7][5] = {{{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)}},{{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L}},{{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)}},{{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L}},{{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)}},{{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L}},{{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)},{4L,4L,4L,4L,4L},{(-1L),(-1L),(-1L),(-1L),(-1L)}}};
        int16_t *l_702[6][4] = {{&g_329[3],&g_329[3],&g_329[2],&g_329[5]},{&g_329[9],&g_329[7],&g_329[9],&g_329[2]},{&g_329[9],&g_329[2],&g_329[2],&g_329[9]},{&g_329[3],&g_329[2],&g_329[5],&g_329[2]},{&g_329[2],&g_329[7],&g_329[5],&g_329[5]},{&g_329[3],&g_329[3],&g_329[2],&g_329[5]}};
        int i, j, k;
        for (i = 0; i < 10; i++)
            l_664[i] = 0x7DF73707L;
        for (g_192 = 0; (g_192 == 35); g_192++)
        { /* block id: 241 */
            uint32_t l_540 = 1UL;
            int32_t l_603 = 0x88AB0C61L;
            int32_t * const l_609 = &g_347;
            (*g_89) = ((*g_502) , 0x967D1C70L);
            for (g_205 = 0; (g_205 > 36); g_205++)
            { /* block id: 245 */
                int32_t *l_535 = &l_519;
                for (g_330 = 8; (g_330 > (-23)); g_330 = safe_sub_func_uint64_t_u_u(g_330, 7))
                { /* block id: 248 */
                    int32_t **l_536 = &l_523[6][1];
                    (*l_536) = l_535;
                    --l_537;
                    return l_540;
                }
                for (l_519 = 0; (l_519 >= (-30)); l_519 = safe_sub_func_int8_t_s_s(l_519, 8))
                { /* block id: 255 */
                    uint32_t ***l_558[1];
                    int32_t l_567 = 0x39D89A80L;
                    int i;
                    for (i = 0; i < 1; i++)
                        l_558[i] = (void*)0;
                }
            }
            for (g_518 = (-29); (g_518 >= 43); g_518 = safe_add_func_int32_t_s_s(g_518, 8))
            { /* block id: 281 */
                int64_t l_581 = 6L;
                int32_t l_604 = 0x6A9DE1CBL;
                uint16_t l_605[4] = {0xEECBL,0xEECBL,0xEECBL,0xEECBL};
                int32_t l_612 = 0x57734092L;
                int i;
                for (g_330 = 7; (g_330 == 27); g_330 = safe_add_func_int64_t_s_s(g_330, 1))
                { /* block id: 284 */
                    uint16_t l_587 = 0UL;
                    l_582 = l_581;
                    for (l_582 = (-10); (l_582 != 5); l_582 = safe_add_func_int32_t_s_s(l_582, 3))
                    { /* block id: 288 */
                        int32_t l_585 = 1L;
                        int64_t *l_586 = &g_133[1];
                        uint8_t *l_596 = &l_524;
                        (*l_522) &= (((*l_586) |= l_585) && g_112);
                        l_587++;
                        l_604 ^= ((*g_89) &= ((*l_522) |= ((safe_lshift_func_int8_t_s_s(0x00L, (l_603 = ((safe_sub_func_uint64_t_u_u((safe_rshift_func_int8_t_s_s(g_130, (((*l_596)++) != (0x59L < (safe_mul_func_uint8_t_u_u(g_146[7][4][0], g_130)))))), (((((void*)0 == &g_502) ^ (g_601[0][6] == &g_602[0])) != 0xF82CL) <= g_518))) != 0L)))) , 0x1305F060L)));
                        l_605[2]--;
                    }
                    l_603 = ((*g_89) ^= ((*l_522) = (!(l_609 == &g_347))));
                    if ((*g_277))
                    { /* block id: 302 */
                        return l_604;
                    }
                    else
                    { /* block id: 304 */
                        int16_t l_611 = 0xA624L;
                        if (g_112)
                            goto lbl_610;
                        return l_611;
                    }
                }
                ++l_613;
                ++g_616;
            }
        }
        (*g_89) = (((*l_643) = (((((safe_add_func_uint32_t_u_u((!((((l_642 &= ((((safe_add_func_uint32_t_u_u((l_537 , l_537), (safe_mul_func_int16_t_s_s((*l_522), ((*g_502) < (safe_rshift_func_int8_t_s_u((safe_mul_func_int16_t_s_s(l_582, (((&l_613 == ((safe_lshift_func_uint16_t_u_s((safe_rshift_func_uint8_t_u_u((safe_div_func_int8_t_s_s(1L, (((safe_mul_func_int8_t_s_s((safe_add_func_uint8_t_u_u((l_613 || g_602[0]), 0x31L)), 8L)) , 2L) , g_416))), 3)), 15)) , (void*)0)) , 0xBE95F943L) ^ 0L))), 3))))))) && l_582) < (*l_522)) & 0UL)) , 2UL) != (*l_522)) || (*p_78))), l_537)) < 0x7D08L) < l_537) >= g_112) & g_133[0])) > 0x1D4E5813E3BE9BE7LL);
        if (l_644[0])
        { /* block id: 316 */
            int32_t l_645 = 6L;
            int32_t l_646 = 0x8528BD31L;
            int32_t l_650 = (-2L);
            int32_t l_652 = 0x0529E14BL;
            int32_t l_653[2];
            int32_t l_656 = (-1L);
            int i;
            for (i = 0; i < 2; i++)
                l_653[i] = 0x27B6C1D3L;
            --l_666;
            (*l_522) ^= l_645;
        }
        else
        { /* block id: 319 */
            uint16_t l_669 = 0x341EL;
            l_669--;
            (*g_89) ^= ((l_648 |= ((safe_lshift_func_int16_t_s_s((safe_mul_func_uint8_t_u_u(l_676, (((l_644[0] , ((safe_add_func_int64_t_s_s((safe_sub_func_uint16_t_u_u((*g_45), ((g_416 , (((*l_643) |= (+l_669)) != ((l_642 == ((safe_add_func_uint8_t_u_u((safe_sub_func_uint16_t_u_u((*p_78), 2L)), ((((safe_mod_func_int8_t_s_s(((l_582 &= (*p_78)) && l_688), g_112)) && 0x8D1AL) , (*l_522)) >= 255UL))) ^ g_416)) && (*l_522)))) || (*g_45)))), g_130)) | l_649)) > l_669) , g_278[1][1][3]))), l_661)) <= 5L)) , l_665[5][6][0]);
        }
        (**g_209) ^= (safe_sub_func_uint32_t_u_u((((((*l_522) = (safe_mod_func_int8_t_s_s((safe_lshift_func_int8_t_s_s((l_644[0] <= (&l_521 == l_695)), (l_655 >= (g_329[3] |= (((*l_695) , (g_345 , ((-1L) != (safe_mod_func_int32_t_s_s((((*l_522) & ((safe_lshift_func_uint8_t_u_s((((((safe_mod_func_uint64_t_u_u(((0x86L & 0x51L) | l_648), (*g_502))) ^ 0xDEA87FA7021BB5F9LL) , 0x8CL) < (*l_522)) , 252UL), g_133[2])) && g_138[1])) & (*p_78)), l_644[0]))))) && 0xD5436CFC587BB72DLL))))), (*l_695)))) != (*l_695)) && (*l_695)) >= l_649), l_661));
    }
    if (l_676)
        goto lbl_610;
    return g_703;
}


/* ------------------------------------------ */
/* 
 * reads : g_117 g_89 g_45 g_46 g_209 g_192 g_133 g_112 g_264 g_146 g_138 g_277 g_278 g_88 g_130 g_177 g_2
 * writes: g_117 g_146 g_205 g_89 g_251 g_192 g_112 g_264 g_278 g_256 g_138 g_130 g_177
 */
static const uint16_t * func_79(int32_t * p_80, uint32_t  p_81, uint8_t  p_82, int32_t  p_83)
{ /* block id: 16 */
    int32_t l_120[6] = {0x5234D5E3L,0x5234D5E3L,0x5234D5E3L,0x5234D5E3L,0x5234D5E3L,0x5234D5E3L};
    int32_t *l_142 = &g_138[3];
    uint32_t l_227 = 9UL;
    int64_t *l_232[8];
    uint32_t * const *l_249 = &g_216;
    uint32_t * const **l_248 = &l_249;
    uint32_t * const ** const *l_247 = &l_248;
    int64_t l_331 = 0x3E6D08E9AEB12E3ELL;
    uint16_t l_419 = 0x2065L;
    uint32_t l_441 = 0x3A60125DL;
    int i;
    for (i = 0; i < 8; i++)
        l_232[i] = &g_146[2][3][0];
    for (p_82 = 1; (p_82 <= 5); p_82 += 1)
    { /* block id: 19 */
        int32_t l_147 = 1L;
        int32_t l_148[1];
        int32_t *l_238 = &g_138[1];
        int i;
        for (i = 0; i < 1; i++)
            l_148[i] = 0x4F27C2C8L;
        for (g_117 = 1; (g_117 <= 5); g_117 += 1)
        { /* block id: 22 */
            int16_t l_149[6][4] = {{0x2713L,0x3268L,0x3268L,0x2713L},{0x3268L,0x2713L,0L,0x8030L},{0x3268L,0L,0x3268L,0L},{0x2713L,0x8030L,0L,0L},{0L,0L,0x9A74L,0x8030L},{0x8030L,0x2713L,0x9A74L,0x2713L}};
            int32_t l_150 = 8L;
            int32_t l_151 = (-1L);
            int32_t l_152 = 0x4D215D55L;
            int32_t l_153[7] = {0x40A59923L,0x40A59923L,0xBBB4AFCFL,0x40A59923L,0x40A59923L,0xBBB4AFCFL,0x40A59923L};
            uint64_t *l_176 = &g_177;
            int64_t *l_201 = &g_146[4][1][0];
            uint16_t *l_204 = &g_205;
            uint32_t **l_206 = (void*)0;
            uint32_t *l_208 = &g_130;
            uint32_t **l_207 = &l_208;
            int i, j;
            for (p_83 = 5; (p_83 >= 0); p_83 -= 1)
            { /* block id: 25 */
                uint32_t *l_129 = &g_130;
                int32_t l_155[7];
                int i;
                for (i = 0; i < 7; i++)
                    l_155[i] = (-6L);
                (*g_89) = (l_120[p_83] &= 1L);
            }
            (*g_89) = (((safe_lshift_func_int16_t_s_u(l_152, ((safe_lshift_func_uint16_t_u_s(((((safe_add_func_uint32_t_u_u((((&p_80 != (void*)0) >= p_81) == (((&g_130 != ((*l_207) = ((safe_mod_func_int64_t_s_s(((*l_201) = p_81), (1L & (safe_lshift_func_uint16_t_u_u(((*l_204) = 0xF3EBL), (*g_45)))))) , &g_117))) , (*p_80)) , l_148[0])), l_152)) & l_148[0]) , 3UL) < p_81), l_148[0])) , (*g_45)))) || 0x676AL) == 0x73L);
            (*g_209) = p_80;
        }
        return &g_46;
    }
    g_251 = l_247;
    for (g_192 = 0; (g_192 <= 5); g_192 += 1)
    { /* block id: 86 */
        int32_t l_257 = 0xC1580B87L;
        int32_t l_276[7][2] = {{0x04CEFAFDL,0L},{2L,(-1L)},{2L,0L},{0x04CEFAFDL,0x04CEFAFDL},{0L,2L},{(-1L),2L},{0L,0x04CEFAFDL}};
        const uint16_t *l_279[1][2];
        uint32_t *l_316 = &g_130;
        uint32_t ***l_371 = &g_215[3][4];
        uint32_t ****l_370 = &l_371;
        uint16_t l_373 = 2UL;
        int32_t *l_461 = &l_120[5];
        int32_t *l_480 = &g_278[1][1][3];
        int i, j;
        for (i = 0; i < 1; i++)
        {
            for (j = 0; j < 2; j++)
                l_279[i][j] = &g_46;
        }
        if (g_133[g_192])
            break;
        for (g_112 = 0; (g_112 <= 6); g_112 += 1)
        { /* block id: 90 */
            int8_t *l_254 = (void*)0;
            int8_t *l_255[9][10][2] = {{{&g_256,&g_256},{(void*)0,&g_112},{&g_112,&g_256},{&g_112,&g_256},{&g_256,&g_112},{(void*)0,(void*)0},{&g_112,(void*)0},{&g_112,&g_112},{(void*)0,&g_112},{&g_112,(void*)0}},{{&g_112,(void*)0},{(void*)0,&g_112},{&g_256,&g_256},{&g_112,&g_256},{&g_112,&g_112},{(void*)0,&g_256},{&g_256,&g_112},{&g_256,&g_112},{(void*)0,&g_256},{&g_256,&g_112}},{{(void*)0,&g_256},{&g_256,&g_112},{&g_256,&g_256},{&g_112,&g_256},{&g_256,&g_112},{&g_256,(void*)0},{&g_112,(void*)0},{&g_112,&g_112},{&g_112,(void*)0},{&g_256,&g_256}},{{(void*)0,&g_256},{&g_256,&g_256},{&g_256,&g_256},{&g_256,&g_256},{&g_112,&g_112},{&g_112,&g_256},{&g_256,&g_112},{&g_256,&g_112},{&g_112,&g_256},{&g_112,&g_112}},{{&g_112,&g_112},{&g_112,&g_256},{&g_256,&g_112},{&g_112,(void*)0},{&g_256,&g_256},{&g_256,(void*)0},{&g_256,&g_256},{&g_112,(void*)0},{&g_256,&g_112},{&g_256,(void*)0}},{{&g_256,&g_112},{&g_256,(void*)0},{&g_112,&g_256},{&g_256,&g_112},{&g_112,&g_256},{&g_256,&g_256},{&g_112,&g_112},{&g_256,&g_256},{(void*)0,&g_256},{&g_112,&g_256}},{{&g_256,&g_112},{&g_256,&g_112},{&g_112,(void*)0},{&g_256,&g_256},{&g_112,&g_256},{&g_256,&g_256},{&g_112,&g_256},{&g_256,(void*)0},{&g_256,(void*)0},{&g_112,&g_112}},{{(void*)0,&g_112},{&g_112,&g_256},{(void*)0,(void*)0},{&g_112,&g_256},{(void*)0,&g_256},{&g_256,&g_256},{&g_112,&g_256},{(void*)0,&g_112},{(void*)0,&g_256},{(void*)0,&g_256}},{{&g_256,&g_256},{&g_256,(void*)0},{&g_256,&g_112},{&g_112,&g_112},{(void*)0,(void*)0},{&g_112,&g_256},{&g_112,&g_256},{&g_112,&g_112},{(void*)0,&g_112},{&g_112,(void*)0}}};
            uint8_t l_287 = 0x3AL;
            uint64_t l_306 = 0x3622BCA56F5464C1LL;
            int16_t *l_328 = &g_329[7];
            int32_t l_343 = 1L;
            int8_t l_413 = 0x07L;
            uint16_t *l_433 = &g_205;
            int8_t l_442[7][3];
            uint32_t l_485 = 18446744073709551615UL;
            int i, j, k;
            for (i = 0; i < 7; i++)
            {
                for (j = 0; j < 3; j++)
                    l_442[i][j] = 0x68L;
            }
            (*g_277) ^= (l_120[g_192] = ((((l_257 |= (0xC02B2854L <= g_133[g_192])) > ((l_120[g_192] & (safe_mod_func_uint16_t_u_u(((safe_div_func_int32_t_s_s(((safe_mul_func_uint64_t_u_u(((*p_80) , ((-1L) && p_81)), (&l_247 != (g_264 = g_264)))) >= (safe_sub_func_int64_t_s_s(((safe_sub_func_int8_t_s_s((safe_sub_func_int64_t_s_s((l_276[3][1] &= (safe_lshift_func_int8_t_s_s((((safe_sub_func_uint64_t_u_u(p_82, g_146[4][1][0])) && g_138[1]) >= 0x4EE4L), 2))), 0UL)), g_192)) & p_81), p_81))), (*p_80))) ^ 1L), (*l_142)))) , l_276[5][1])) < 2UL) || (*g_89)));
            for (g_256 = 6; (g_256 >= 0); g_256 -= 1)
            { /* block id: 98 */
                int16_t l_299 = (-7L);
                int32_t *l_307 = &l_120[3];
                for (l_227 = 2; (l_227 <= 6); l_227 += 1)
                { /* block id: 101 */
                    int32_t *l_280 = &l_120[5];
                    int32_t *l_281 = &g_138[1];
                    int32_t *l_282 = &l_120[g_192];
                    int32_t *l_283 = &l_120[g_192];
                    int32_t *l_284 = &g_278[1][1][3];
                    int32_t *l_285 = &l_276[1][1];
                    int32_t *l_286[6][5] = {{&l_257,(void*)0,&l_257,&g_278[1][4][6],(void*)0},{&l_276[2][0],&g_278[4][0][5],(void*)0,&g_278[4][0][5],&l_276[2][0]},{&l_257,&l_120[g_192],(void*)0,&g_278[2][4][7],(void*)0},{&l_120[5],&l_120[5],(void*)0,&l_276[2][0],&l_276[3][1]},{&l_120[g_192],&l_257,&l_257,&l_120[g_192],(void*)0},{&g_278[4][0][5],&l_276[2][0],&g_138[1],&g_138[1],&l_276[2][0]}};
                    uint8_t *l_294 = &l_287;
                    int i, j;
                    for (g_117 = 0; (g_117 <= 6); g_117 += 1)
                    { /* block id: 104 */
                        (*p_80) = (*l_142);
                        return l_279[0][0];
                    }
                    ++l_287;
                    if ((**g_88))
                        break;
                    (*l_284) &= ((*l_283) = (safe_add_func_int32_t_s_s(0xF67D07CCL, ((**g_209) && (safe_sub_func_int8_t_s_s(p_83, ((*l_294) = 1UL)))))));
                }
                (*l_307) ^= (((safe_lshift_func_uint8_t_u_s((safe_div_func_uint8_t_u_u(g_130, (-4L))), 6)) && l_299) <= (((*p_80) |= (((g_177 >= 1UL) == 0x5723L) && (((18446744073709551610UL > (((l_306 ^= (((safe_mul_func_uint16_t_u_u((safe_add_func_uint8_t_u_u((0x9A4AED9664FAAABBLL <= 18446744073709551615UL), (-5L))), 2L)) != g_46) , 9L)) , g_138[1]) > g_2)) > g_117) , g_138[8]))) && (**g_88)));
                (*l_142) ^= 0L;
            }
        }
        for (g_130 = 1; (g_130 <= 5); g_130 += 1)
        { /* block id: 221 */
            int i;
            (*l_461) = ((*p_80) = ((0x404F4075F2E7F456LL | (g_177 = 3UL)) == g_133[g_192]));
            if (l_120[g_130])
                continue;
        }
    }
    return &g_46;
}


/* ------------------------------------------ */
/* 
 * reads : g_88 g_89 g_112 g_45 g_46 g_2 g_117
 * writes: g_89 g_117
 */
static int32_t * func_84(int64_t  p_85, int32_t * p_86)
{ /* block id: 9 */
    uint64_t l_87 = 18446744073709551615UL;
    int32_t **l_90 = &g_89;
    int32_t * const l_91 = &g_2;
    uint32_t *l_116 = &g_117;
    uint64_t *l_118 = &l_87;
    (*g_88) = (l_87 , p_86);
    (*p_86) = (((*l_118) = ((0xCFE0C2DFL || (((((((((*l_90) = (*g_88)) != l_91) >= (((safe_mul_func_uint16_t_u_u((safe_rshift_func_uint8_t_u_u(p_85, (safe_sub_func_int8_t_s_s((safe_div_func_uint16_t_u_u((safe_sub_func_int32_t_s_s((safe_div_func_int16_t_s_s(0x7B60L, (safe_add_func_int32_t_s_s((safe_unary_minus_func_uint8_t_u(((+(!(safe_unary_minus_func_uint32_t_u(((*l_116) = (safe_rshift_func_uint16_t_u_s(g_112, ((~(4L || (((safe_sub_func_int8_t_s_s((g_112 != p_85), g_112)) >= 0L) , (*g_45)))) || 0x3288L)))))))) , 0UL))), (*p_86))))), (*p_86))), g_46)), (*l_91))))), (-4L))) < p_85) != g_2)) <= g_2) <= g_2) , (void*)0) != &p_86) , 0x1299D621L)) && g_117)) != p_85);
    return (*g_88);
}




/* ---------------------------------------- */
int main (int argc, char* argv[])
{
    int i, j, k;
    int print_hash_value = 0;
    if (argc == 2 && strcmp(argv[1], "1") == 0) print_hash_value = 1;
    platform_main_begin();
    crc32_gentab();
    func_1();
    transparent_crc(g_2, "g_2", print_hash_value);
    transparent_crc(g_36, "g_36", print_hash_value);
    transparent_crc(g_46, "g_46", print_hash_value);
    transparent_crc(g_112, "g_112", print_hash_value);
    transparent_crc(g_117, "g_117", print_hash_value);
    transparent_crc(g_130, "g_130", print_hash_value);
    for (i = 0; i < 6; i++)
    {
        transparent_crc(g_133[i], "g_133[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    for (i = 0; i < 9; i++)
    {
        transparent_crc(g_138[i], "g_138[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    for (i = 0; i < 10; i++)
    {
        for (j = 0; j < 5; j++)
        {
            for (k = 0; k < 1; k++)
            {
                transparent_crc(g_146[i][j][k], "g_146[i][j][k]", print_hash_value);
                if (print_hash_value) printf("index = [%d][%d][%d]\n", i, j, k);

            }
        }
    }
    transparent_crc(g_177, "g_177", print_hash_value);
    transparent_crc(g_192, "g_192", print_hash_value);
    transparent_crc(g_205, "g_205", print_hash_value);
    transparent_crc(g_256, "g_256", print_hash_value);
    for (i = 0; i < 5; i++)
    {
        for (j = 0; j < 6; j++)
        {
            for (k = 0; k < 8; k++)
            {
                transparent_crc(g_278[i][j][k], "g_278[i][j][k]", print_hash_value);
                if (print_hash_value) printf("index = [%d][%d][%d]\n", i, j, k);

            }
        }
    }
    for (i = 0; i < 10; i++)
    {
        transparent_crc(g_329[i], "g_329[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_330, "g_330", print_hash_value);
    transparent_crc(g_345, "g_345", print_hash_value);
    transparent_crc(g_347, "g_347", print_hash_value);
    transparent_crc(g_416, "g_416", print_hash_value);
    transparent_crc(g_518, "g_518", print_hash_value);
    transparent_crc(g_573, "g_573", print_hash_value);
    for (i = 0; i < 1; i++)
    {
        transparent_crc(g_602[i], "g_602[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_616, "g_616", print_hash_value);
    transparent_crc(g_658, "g_658", print_hash_value);
    transparent_crc(g_703, "g_703", print_hash_value);
    transparent_crc(g_904, "g_904", print_hash_value);
    transparent_crc(g_937, "g_937", print_hash_value);
    transparent_crc(g_1173, "g_1173", print_hash_value);
    transparent_crc(g_1393, "g_1393", print_hash_value);
    transparent_crc(g_1394, "g_1394", print_hash_value);
    transparent_crc(g_1488, "g_1488", print_hash_value);
    transparent_crc(g_1559, "g_1559", print_hash_value);
    transparent_crc(g_1591, "g_1591", print_hash_value);
    for (i = 0; i < 7; i++)
    {
        for (j = 0; j < 6; j++)
        {
            for (k = 0; k < 2; k++)
            {
                transparent_crc(g_2062[i][j][k], "g_2062[i][j][k]", print_hash_value);
                if (print_hash_value) printf("index = [%d][%d][%d]\n", i, j, k);

            }
        }
    }
    transparent_crc(g_2158, "g_2158", print_hash_value);
    transparent_crc(g_2245, "g_2245", print_hash_value);
    transparent_crc(g_2509, "g_2509", print_hash_value);
    for (i = 0; i < 6; i++)
    {
        for (j = 0; j < 1; j++)
        {
            for (k = 0; k < 5; k++)
            {
                transparent_crc(g_2591[i][j][k], "g_2591[i][j][k]", print_hash_value);
                if (print_hash_value) printf("index = [%d][%d][%d]\n", i, j, k);

            }
        }
    }
    transparent_crc(g_2841, "g_2841", print_hash_value);
    transparent_crc(g_2913, "g_2913", print_hash_value);
    transparent_crc(g_2922, "g_2922", print_hash_value);
    for (i = 0; i < 3; i++)
    {
        transparent_crc(g_2957[i], "g_2957[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_2994, "g_2994", print_hash_value);
    transparent_crc(g_3035, "g_3035", print_hash_value);
    transparent_crc(g_3322, "g_3322", print_hash_value);
    platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);
    return 0;
}

/************************ statistics *************************
XXX max struct depth: 0
breakdown:
   depth: 0, occurrence: 765
XXX total union variables: 0

XXX non-zero bitfields defined in structs: 0
XXX zero bitfields defined in structs: 0
XXX const bitfields defined in structs: 0
XXX volatile bitfields defined in structs: 0
XXX structs with bitfields in the program: 0
breakdown:
XXX full-bitfields structs in the program: 0
breakdown:
XXX times a bitfields struct's address is taken: 0
XXX times a bitfields struct on LHS: 0
XXX times a bitfields struct on RHS: 0
XXX times a single bitfield on LHS: 0
XXX times a single bitfield on RHS: 0

XXX max expression depth: 34
breakdown:
   depth: 1, occurrence: 214
   depth: 2, occurrence: 64
   depth: 3, occurrence: 4
   depth: 4, occurrence: 4
   depth: 5, occurrence: 2
   depth: 6, occurrence: 2
   depth: 7, occurrence: 2
   depth: 9, occurrence: 1
   depth: 12, occurrence: 2
   depth: 13, occurrence: 1
   depth: 14, occurrence: 1
   depth: 15, occurrence: 1
   depth: 18, occurrence: 3
   depth: 19, occurrence: 1
   depth: 20, occurrence: 3
   depth: 21, occurrence: 2
   depth: 22, occurrence: 1
   depth: 23, occurrence: 5
   depth: 24, occurrence: 3
   depth: 25, occurrence: 3
   depth: 26, occurrence: 6
   depth: 27, occurrence: 2
   depth: 28, occurrence: 2
   depth: 29, occurrence: 2
   depth: 30, occurrence: 1
   depth: 31, occurrence: 1
   depth: 32, occurrence: 1
   depth: 33, occurrence: 1
   depth: 34, occurrence: 1

XXX total number of pointers: 637

XXX times a variable address is taken: 1896
XXX times a pointer is dereferenced on RHS: 672
breakdown:
   depth: 1, occurrence: 539
   depth: 2, occurrence: 106
   depth: 3, occurrence: 17
   depth: 4, occurrence: 10
XXX times a pointer is dereferenced on LHS: 482
breakdown:
   depth: 1, occurrence: 429
   depth: 2, occurrence: 36
   depth: 3, occurrence: 12
   depth: 4, occurrence: 5
XXX times a pointer is compared with null: 86
XXX times a pointer is compared with address of another variable: 17
XXX times a pointer is compared with another pointer: 20
XXX times a pointer is qualified to be dereferenced: 12291

XXX max dereference level: 5
breakdown:
   level: 0, occurrence: 0
   level: 1, occurrence: 2219
   level: 2, occurrence: 407
   level: 3, occurrence: 103
   level: 4, occurrence: 62
   level: 5, occurrence: 23
XXX number of pointers point to pointers: 307
XXX number of pointers point to scalars: 330
XXX number of pointers point to structs: 0
XXX percent of pointers has null in alias set: 29.8
XXX average alias set size: 1.53

XXX times a non-volatile is read: 3092
XXX times a non-volatile is write: 1375
XXX times a volatile is read: 121
XXX    times read thru a pointer: 24
XXX times a volatile is write: 69
XXX    times written thru a pointer: 35
XXX times a volatile is available for access: 2.1e+03
XXX percentage of non-volatile access: 95.9

XXX forward jumps: 0
XXX backward jumps: 16

XXX stmts: 225
XXX max block depth: 5
breakdown:
   depth: 0, occurrence: 32
   depth: 1, occurrence: 20
   depth: 2, occurrence: 37
   depth: 3, occurrence: 25
   depth: 4, occurrence: 41
   depth: 5, occurrence: 70

XXX percentage a fresh-made variable is used: 14.5
XXX percentage an existing variable is used: 85.5
********************* end of statistics **********************/

