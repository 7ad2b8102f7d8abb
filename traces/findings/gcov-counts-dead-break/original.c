/*
 * This is a RANDOMLY GENERATED PROGRAM.
 *
 * Generator: csmith 2.3.0
 * Git version: 30dccd7
 * Options:   --seed 40
 * Seed:      40
 */

#include "csmith.h"


static long __undefined;

/* --- Struct/Union Declarations --- */
union U0 {
   volatile int8_t * const  f0;
   const signed f1 : 16;
   int32_t  f2;
};

/* --- GLOBAL VARIABLES --- */
static uint64_t g_11 = 0x21F1EB32A831D26ELL;
static int32_t g_18[9] = {(-1L),(-1L),(-1L),(-1L),(-1L),(-1L),(-1L),(-1L),(-1L)};
static int8_t g_20 = 0xA5L;
static const int8_t *g_44 = &g_20;
static const int8_t ** const g_43 = &g_44;
static int16_t g_58 = 0x33D7L;
static uint16_t g_89[8][7] = {{0xCC99L,1UL,0xC0ACL,0x65BBL,65535UL,0x65BBL,0xC0ACL},{6UL,6UL,65535UL,65529UL,65535UL,0x2A8FL,0x0421L},{0xCC99L,0x65BBL,0x58B5L,0x58B5L,0x65BBL,0xCC99L,65535UL},{1UL,65535UL,0x767AL,0x78BEL,65535UL,65535UL,0x78BEL},{0UL,65532UL,0UL,1UL,65535UL,0x1D00L,0xCC99L},{0x767AL,65535UL,0x0421L,0x767AL,0x0421L,6UL,0xF48BL},{0x8E43L,0x58B5L,0UL,1UL,1UL,0xCC99L,1UL},{6UL,0x2A8FL,0x2A8FL,6UL,0x7ACAL,1UL,0x767AL}};
static uint16_t g_91[8] = {0x0B25L,0x0B25L,0x0B25L,0x0B25L,0x0B25L,0x0B25L,0x0B25L,0x0B25L};
static volatile union U0 g_106 = {0};/* VOLATILE GLOBAL g_106 */
static uint8_t g_111 = 0xD2L;
static int32_t g_119[2][1][7] = {{{0xDDE1E780L,0xDDE1E780L,2L,0xDDE1E780L,0xDDE1E780L,2L,0xDDE1E780L}},{{0xDDE1E780L,0x6630802EL,0x6630802EL,0xDDE1E780L,0x6630802EL,0x6630802EL,0xDDE1E780L}}};
static int32_t * volatile g_118 = &g_119[1][0][0];/* VOLATILE GLOBAL g_118 */
static int64_t g_131[4] = {(-1L),(-1L),(-1L),(-1L)};
static int16_t g_140 = 0x8E8FL;
static int32_t g_142 = 0x94F6C93EL;
static int32_t * volatile g_141[6] = {&g_18[8],&g_18[8],&g_18[8],&g_18[8],&g_18[8],&g_18[8]};
static int32_t g_171 = (-1L);
static uint32_t g_172 = 0xEABB79EBL;
static int32_t * volatile g_211[7][2] = {{&g_171,&g_18[8]},{(void*)0,&g_142},{&g_142,(void*)0},{&g_18[8],&g_171},{&g_18[8],(void*)0},{&g_142,&g_142},{(void*)0,&g_18[8]}};
static int32_t *g_215 = &g_18[8];
static volatile int8_t *g_240 = (void*)0;
static volatile int8_t * volatile *g_239 = &g_240;
static volatile uint16_t **g_279[3] = {(void*)0,(void*)0,(void*)0};
static int8_t g_320 = 0x95L;
static volatile int32_t g_368 = 0x4E2D67D4L;/* VOLATILE GLOBAL g_368 */
static volatile int32_t * volatile g_367 = &g_368;/* VOLATILE GLOBAL g_367 */
static int16_t g_397 = 0x6EE9L;
static int8_t g_400 = 0x15L;
static volatile int32_t *g_414 = (void*)0;
static volatile int32_t ** volatile g_413 = &g_414;/* VOLATILE GLOBAL g_413 */
static int32_t * volatile g_426[3][8] = {{(void*)0,&g_119[1][0][0],(void*)0,(void*)0,&g_119[1][0][0],(void*)0,(void*)0,&g_119[1][0][0]},{&g_119[1][0][0],(void*)0,(void*)0,&g_119[1][0][0],(void*)0,(void*)0,&g_119[1][0][0],(void*)0},{&g_119[1][0][0],&g_119[1][0][0],&g_119[0][0][4],&g_119[1][0][0],&g_119[1][0][0],&g_119[0][0][4],&g_119[1][0][0],&g_119[1][0][0]}};
static int32_t * volatile g_427 = &g_171;/* VOLATILE GLOBAL g_427 */
static int16_t * volatile g_432 = &g_58;/* VOLATILE GLOBAL g_432 */
static int16_t * volatile *g_431 = &g_432;
static volatile int32_t ** volatile g_488 = &g_414;/* VOLATILE GLOBAL g_488 */
static uint32_t g_512 = 3UL;
static const uint8_t g_543 = 0xECL;
static uint64_t g_575 = 0xB7A4F7B63D270E7CLL;
static int32_t ** volatile g_629 = (void*)0;/* VOLATILE GLOBAL g_629 */
static int32_t ** volatile g_630[7][2] = {{&g_215,&g_215},{&g_215,&g_215},{&g_215,&g_215},{&g_215,&g_215},{&g_215,&g_215},{&g_215,&g_215},{&g_215,&g_215}};
static int8_t *g_638[4][8][4] = {{{&g_400,&g_400,(void*)0,&g_400},{&g_400,&g_20,&g_20,&g_400},{&g_20,&g_320,(void*)0,&g_400},{&g_20,(void*)0,&g_320,&g_320},{&g_20,&g_400,(void*)0,&g_320},{(void*)0,(void*)0,&g_20,&g_400},{&g_400,&g_320,&g_20,&g_400},{(void*)0,&g_20,&g_20,&g_400}},{{(void*)0,&g_400,(void*)0,&g_400},{&g_20,&g_20,(void*)0,(void*)0},{&g_320,&g_400,(void*)0,&g_400},{&g_20,&g_20,&g_20,&g_20},{&g_320,(void*)0,&g_400,(void*)0},{(void*)0,&g_20,&g_20,&g_400},{(void*)0,&g_400,&g_400,&g_400},{&g_320,&g_400,&g_20,&g_320}},{{&g_20,&g_400,(void*)0,&g_320},{&g_320,&g_20,(void*)0,&g_20},{&g_20,&g_400,(void*)0,&g_400},{(void*)0,&g_20,&g_20,&g_20},{(void*)0,(void*)0,&g_20,&g_20},{&g_400,&g_320,&g_20,(void*)0},{&g_320,&g_400,&g_20,&g_20},{&g_400,&g_400,(void*)0,(void*)0}},{{&g_400,&g_320,&g_400,&g_400},{(void*)0,(void*)0,(void*)0,&g_400},{&g_20,&g_20,(void*)0,&g_20},{&g_400,&g_400,&g_20,&g_400},{(void*)0,&g_20,&g_320,(void*)0},{&g_20,&g_20,&g_20,&g_20},{&g_400,&g_20,&g_320,&g_320},{(void*)0,&g_400,(void*)0,&g_20}}};
static int8_t **g_637 = &g_638[3][4][0];
static int8_t ***g_636[5] = {&g_637,&g_637,&g_637,&g_637,&g_637};
static int8_t ****g_635 = &g_636[3];
static union U0 g_640 = {0};
static union U0 *g_642 = &g_640;
static union U0 ** volatile g_641[2][5] = {{&g_642,&g_642,&g_642,&g_642,&g_642},{&g_642,&g_642,&g_642,&g_642,&g_642}};
static union U0 ** volatile g_643[10] = {&g_642,&g_642,(void*)0,&g_642,&g_642,(void*)0,&g_642,&g_642,(void*)0,&g_642};


/* --- FORWARD DECLARATIONS --- */
static const int16_t  func_1(void);
static union U0 * const  func_2(int8_t * p_3, int16_t  p_4);
static int8_t * func_5(uint32_t  p_6, uint32_t  p_7);
static int32_t * const  func_12(int32_t * const  p_13, int8_t * p_14, const int32_t * p_15, int8_t * p_16);
static int8_t * func_24(int16_t  p_25, const uint16_t  p_26, uint32_t  p_27);
static int8_t * func_30(const uint8_t  p_31);
static int32_t * func_34(uint32_t  p_35, union U0  p_36, uint16_t  p_37, int8_t  p_38);
static union U0  func_39(uint64_t  p_40, const int8_t ** const  p_41, int8_t * p_42);
static uint16_t  func_59(const uint16_t  p_60, int64_t  p_61, uint8_t  p_62, uint8_t  p_63, union U0  p_64);
static int8_t ** func_67(int16_t * const  p_68, int16_t  p_69, uint8_t  p_70, union U0  p_71, uint32_t  p_72);


/* --- FUNCTIONS --- */
/* ------------------------------------------ */
/* 
 * reads : g_11 g_18 g_43 g_20 g_89 g_106 g_111 g_44 g_118 g_91 g_131 g_142 g_119 g_171 g_215 g_58 g_239 g_140 g_279 g_320 g_172 g_367 g_368 g_413 g_397 g_427 g_431 g_432 g_414 g_488 g_512 g_400 g_575
 * writes: g_18 g_58 g_89 g_91 g_111 g_11 g_119 g_131 g_20 g_142 g_171 g_172 g_215 g_211 g_140 g_320 g_367 g_397 g_400 g_414 g_512 g_141 g_575 g_635 g_642
 */
static const int16_t  func_1(void)
{ /* block id: 0 */
    int32_t l_8 = (-9L);
    union U0 **l_644 = &g_642;
    (*l_644) = func_2(func_5(l_8, l_8), l_8);
    (*g_215) = (*g_118);
    return (*g_432);
}


/* ------------------------------------------ */
/* 
 * reads : g_397 g_44 g_20 g_131 g_142 g_91 g_119 g_320 g_512 g_432 g_58 g_368 g_89 g_43 g_427 g_400 g_215 g_118 g_11 g_172 g_140 g_111 g_575 g_431
 * writes: g_397 g_11 g_111 g_119 g_400 g_171 g_512 g_141 g_142 g_18 g_575 g_140 g_131 g_635
 */
static union U0 * const  func_2(int8_t * p_3, int16_t  p_4)
{ /* block id: 167 */
    int32_t l_494 = 0xAC494E0BL;
    int32_t *l_495 = &g_171;
    int32_t l_518 = 0L;
    int32_t l_519 = 0xF35097E2L;
    uint8_t *l_544 = (void*)0;
    uint64_t *l_585 = &g_575;
    union U0 * const l_639 = &g_640;
    for (g_397 = 0; (g_397 <= 14); g_397 = safe_add_func_int64_t_s_s(g_397, 2))
    { /* block id: 170 */
        int32_t l_505 = (-1L);
        const int8_t l_508 = 1L;
        int64_t l_549 = 0x816796435743E36CLL;
        uint32_t *l_565 = &g_172;
        uint32_t l_602 = 0xEC8E45A2L;
        int8_t **l_634 = (void*)0;
        int8_t ***l_633 = &l_634;
        int8_t ****l_632 = &l_633;
        for (g_11 = 0; (g_11 != 33); ++g_11)
        { /* block id: 173 */
            union U0 l_493 = {0};
            int32_t l_509[1][3][9] = {{{9L,9L,9L,9L,9L,9L,9L,9L,9L},{0x8DDCED69L,0x8DDCED69L,0x8DDCED69L,0x8DDCED69L,0x8DDCED69L,0x8DDCED69L,0x8DDCED69L,0x8DDCED69L,0x8DDCED69L},{9L,9L,9L,9L,9L,9L,9L,9L,9L}}};
            int32_t l_510 = 0xFE4AA0D4L;
            uint8_t *l_511 = &g_111;
            uint64_t *l_588 = (void*)0;
            uint16_t l_589 = 1UL;
            int64_t *l_623[3];
            uint32_t **l_628 = (void*)0;
            int32_t **l_631 = &l_495;
            int i, j, k;
            for (i = 0; i < 3; i++)
                l_623[i] = &g_131[1];
            l_495 = func_34(p_4, l_493, l_494, (*g_44));
            if ((l_493 , (safe_sub_func_int8_t_s_s((safe_lshift_func_int16_t_s_s(((safe_add_func_int32_t_s_s(((7L >= ((*p_3) & ((((safe_rshift_func_uint8_t_u_s(((*l_511) = (+(l_510 &= (l_505 == ((l_509[0][1][6] &= ((g_142 , (1UL != (*l_495))) < ((safe_rshift_func_int8_t_s_s(((0x24840EA7L >= l_508) || (*l_495)), l_505)) == 0L))) , g_320))))), 6)) ^ 65535UL) >= (*l_495)) || p_4))) | (*l_495)), 0x90370390L)) < g_512), (*g_432))), 0xF3L))))
            { /* block id: 178 */
                int32_t *l_513 = (void*)0;
                int32_t *l_514 = &l_510;
                int32_t *l_515 = &g_142;
                int32_t *l_516 = &l_509[0][1][6];
                int32_t *l_517[9] = {&l_510,&g_119[1][0][0],&g_119[1][0][0],&l_510,&g_119[1][0][0],&g_119[1][0][0],&l_510,&g_119[1][0][0],&g_119[1][0][0]};
                uint64_t l_520 = 8UL;
                int8_t *l_533 = (void*)0;
                int8_t *l_534 = &g_400;
                const uint8_t *l_542 = &g_543;
                const uint8_t **l_541 = &l_542;
                int i;
                ++l_520;
                (*g_427) = ((0x4FE9D9399E39DB4ALL | (g_368 , (safe_div_func_int16_t_s_s(7L, (safe_mod_func_int8_t_s_s((*p_3), (safe_add_func_int8_t_s_s((l_505 = ((safe_sub_func_uint32_t_u_u(((safe_rshift_func_int8_t_s_u(((*l_534) = (*l_495)), (((safe_lshift_func_int8_t_s_s((((g_89[0][3] <= (((((*l_516) < ((safe_mul_func_int16_t_s_s(((safe_mod_func_uint32_t_u_u((((((*l_541) = ((l_509[0][1][6] , ((((p_4 || l_508) , &g_11) != (void*)0) <= (-1L))) , l_511)) == l_544) , l_509[0][1][6]) < g_512), l_510)) , l_510), p_4)) & l_509[0][0][8])) >= (*l_495)) , g_91[4]) <= g_368)) && 0xB502A0FDL) == 0xB59ABBF9C2A4E8ABLL), (**g_43))) ^ g_512) != p_4))) == g_119[0][0][2]), 9UL)) ^ 0x5614B441L)), (*l_495))))))))) & p_4);
            }
            else
            { /* block id: 184 */
                int16_t l_552 = 0xEE59L;
                int64_t l_560 = 0L;
                int16_t l_576 = 0xC61EL;
                int16_t *l_584 = &g_140;
                uint64_t **l_586 = (void*)0;
                uint64_t **l_587 = &l_585;
                for (g_512 = 0; (g_512 <= 54); g_512 = safe_add_func_uint8_t_u_u(g_512, 1))
                { /* block id: 187 */
                    int32_t l_559 = 0x972C690CL;
                    union U0 l_562 = {0};
                    uint32_t *l_564 = &g_512;
                    uint32_t **l_563 = &l_564;
                    uint64_t *l_573 = (void*)0;
                    uint64_t *l_574 = &g_575;
                    g_141[0] = &l_505;
                    (*g_215) = (((safe_div_func_int16_t_s_s(l_549, (*g_432))) , (safe_mul_func_int16_t_s_s((l_552 != ((safe_add_func_uint32_t_u_u((safe_mod_func_uint32_t_u_u(((safe_div_func_int16_t_s_s((l_552 ^ l_559), l_560)) & 0xE5L), ((((*l_563) = func_34((safe_unary_minus_func_uint64_t_u(g_400)), l_562, (*l_495), (*g_44))) != l_565) && (*l_495)))), 2UL)) > p_4)), p_4))) , 1L);
                    l_509[0][0][7] &= (((((safe_rshift_func_int16_t_s_u((safe_unary_minus_func_int8_t_s((g_512 < ((((*g_118) < (((*l_564)++) , ((((*l_574) = (safe_mod_func_uint8_t_u_u(p_4, 1UL))) != p_4) || l_576))) & p_4) | g_11)))), (safe_sub_func_uint32_t_u_u((((l_510 = ((safe_unary_minus_func_int8_t_s((l_576 < g_172))) & p_4)) || l_559) >= l_576), p_4)))) < p_4) | g_131[1]) , l_559) || g_89[0][3]);
                    (*l_495) = p_4;
                }
                (*l_495) = ((safe_mod_func_uint64_t_u_u(((((safe_sub_func_int16_t_s_s(((*l_584) ^= (*g_432)), (((*l_587) = l_585) != (l_576 , l_588)))) >= l_589) & ((--(*l_511)) < ((safe_lshift_func_int16_t_s_s(((safe_sub_func_int8_t_s_s((((safe_mul_func_uint8_t_u_u(g_172, (&g_543 == p_3))) , (((((safe_lshift_func_uint8_t_u_u((safe_lshift_func_int16_t_s_u(l_560, 15)), (*l_495))) || g_89[0][3]) <= g_172) < 1UL) || (-1L))) > g_89[0][3]), l_560)) , 1L), 13)) | g_11))) > g_400), g_20)) >= g_397);
                l_602 |= ((*l_495) |= 1L);
            }
            (*l_631) = ((((safe_div_func_int32_t_s_s((!(safe_rshift_func_int8_t_s_s((**g_43), ((((safe_rshift_func_int8_t_s_s((safe_add_func_int32_t_s_s((safe_mod_func_int32_t_s_s(p_4, (safe_mul_func_uint16_t_u_u((safe_div_func_int64_t_s_s(((((+(((safe_sub_func_int16_t_s_s(((--(*l_585)) <= (g_131[3] = g_131[1])), (((*l_511) = g_91[4]) , (((safe_lshift_func_uint8_t_u_u((&l_588 != ((((g_119[1][0][0] , ((*l_495) = (safe_mod_func_uint8_t_u_u((((p_4 > 0xD453L) | (((p_4 <= p_4) && 0x1799L) < l_508)) & 0x9B59649130734205LL), 8L)))) & p_4) < p_4) , (void*)0)), p_4)) | p_4) | g_91[7])))) == 0x44D2C272L) & p_4)) > (*p_3)) , l_628) == (void*)0), 2L)), (**g_431))))), l_602)), (**g_43))) , g_89[0][3]) & 0x78L) , (**g_43))))), l_508)) | p_4) != (-1L)) , &l_505);
            g_635 = l_632;
        }
    }
    return l_639;
}


/* ------------------------------------------ */
/* 
 * reads : g_11 g_18 g_43 g_20 g_89 g_106 g_111 g_44 g_118 g_91 g_131 g_142 g_119 g_171 g_215 g_58 g_239 g_140 g_279 g_320 g_172 g_367 g_368 g_413 g_397 g_427 g_431 g_432 g_414 g_488
 * writes: g_18 g_58 g_89 g_91 g_111 g_11 g_119 g_131 g_20 g_142 g_171 g_172 g_215 g_211 g_140 g_320 g_367 g_397 g_400 g_414
 */
static int8_t * func_5(uint32_t  p_6, uint32_t  p_7)
{ /* block id: 1 */
    int32_t * const l_17 = &g_18[8];
    int8_t *l_19 = &g_20;
    const int32_t *l_23 = (void*)0;
    int8_t *l_28 = &g_20;
    uint8_t l_244 = 0UL;
    int64_t l_430 = 0x5217F3F56BA5D0A3LL;
    uint16_t *l_474 = &g_91[7];
    uint32_t *l_479[2];
    int32_t l_480 = 7L;
    int32_t l_481 = 0x3FCAF53DL;
    int8_t l_486 = 0L;
    uint32_t l_487 = 1UL;
    int i;
    for (i = 0; i < 2; i++)
        l_479[i] = &g_172;
lbl_462:
    for (p_7 = 27; (p_7 <= 27); ++p_7)
    { /* block id: 4 */
        int8_t **l_21 = (void*)0;
        int8_t **l_22 = &l_19;
        const int32_t *l_29 = &g_18[7];
        int8_t *l_242[7] = {&g_20,&g_20,&g_20,&g_20,&g_20,&g_20,&g_20};
        int8_t **l_241 = &l_242[2];
        int16_t *l_243[5][2] = {{&g_140,&g_140},{&g_58,&g_140},{&g_140,&g_58},{&g_140,&g_140},{&g_140,&g_58}};
        int32_t **l_415 = (void*)0;
        int i, j;
        l_29 = (g_11 , (p_7 , func_12(l_17, ((*l_22) = l_19), l_23, func_24((l_244 = (l_28 == ((*l_241) = (((void*)0 != l_29) , func_30((safe_sub_func_uint32_t_u_u(0xD4856CD8L, (*l_29)))))))), p_6, p_7))));
        return &g_20;
    }
    for (g_397 = 0; (g_397 <= 3); g_397 += 1)
    { /* block id: 130 */
        uint16_t *l_421 = &g_91[7];
        union U0 l_423[8][9][3] = {{{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}}},{{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}}},{{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}}},{{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}}},{{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}}},{{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}}},{{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}}},{{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}},{{0},{0},{0}}}};
        uint8_t *l_424 = &l_244;
        int16_t *l_425 = &g_58;
        int32_t *l_440 = (void*)0;
        int32_t *l_441 = &g_171;
        uint32_t *l_453 = &g_172;
        int8_t l_454 = 0L;
        int i, j, k;
        (*g_427) ^= (safe_mod_func_int16_t_s_s(((*l_425) = (((0xCA6DL != (safe_unary_minus_func_uint16_t_u((safe_add_func_uint64_t_u_u(18446744073709551615UL, (((((*l_17) = (((*l_421) = 65530UL) != (0xA5L == (((*l_424) = (safe_unary_minus_func_int16_t_s((((g_131[g_397] , &g_111) != (void*)0) , (((((l_423[4][5][1] , (p_6 & (**g_43))) || 0x553CL) > p_6) != g_397) & p_7))))) && p_6)))) | 4294967289UL) != 0x90EEL) ^ p_7)))))) | 0xB11DBAA1L) && 0x133E5798L)), g_131[g_397]));
        (*l_441) = (((*l_424) = ((((*l_421) = (g_89[6][5] = p_7)) , ((0xBB7261D153DDF38ALL | (((l_430 = (safe_lshift_func_uint8_t_u_s(g_131[1], ((*l_17) = 7L)))) <= g_397) == 0x27L)) , g_431)) != ((safe_mul_func_uint8_t_u_u((safe_rshift_func_int16_t_s_s((!(65534UL || ((safe_mod_func_int64_t_s_s((((((l_424 == l_424) && g_131[g_397]) , 255UL) == p_7) && (**g_431)), 7UL)) , p_7))), 3)), (*g_44))) , (void*)0))) && 0x18L);
        for (g_58 = 0; (g_58 <= 3); g_58 += 1)
        { /* block id: 144 */
            int64_t l_451 = 2L;
            uint32_t *l_452 = &g_172;
            int i, j;
            (*l_441) = (g_89[(g_58 + 3)][(g_397 + 3)] >= ((safe_add_func_uint32_t_u_u(((((!((*l_421) &= p_7)) == 0x8D72D4DD2E531E6CLL) >= (((safe_div_func_uint64_t_u_u(((safe_rshift_func_uint8_t_u_u((safe_sub_func_int8_t_s_s((9UL | ((*l_441) ^ l_451)), ((l_452 != l_453) || ((*l_19) = (((*g_215) = (g_89[(g_58 + 3)][(g_397 + 3)] && (*g_427))) || 1L))))), 2)) > g_320), g_171)) , p_6) && p_7)) < p_7), 0xE426B522L)) <= l_454));
        }
    }
    for (g_172 = (-22); (g_172 < 11); g_172 = safe_add_func_int32_t_s_s(g_172, 2))
    { /* block id: 153 */
        int8_t l_459 = 0xDBL;
        const union U0 *l_460 = (void*)0;
        for (g_11 = (-19); (g_11 <= 9); g_11 = safe_add_func_uint16_t_u_u(g_11, 8))
        { /* block id: 156 */
            const union U0 **l_461 = &l_460;
            if (l_459)
                break;
            (*l_461) = l_460;
            if (g_142)
                goto lbl_462;
        }
    }
    (*g_488) = (*g_413);
    return &g_20;
}


/* ------------------------------------------ */
/* 
 * reads : g_140 g_11 g_131 g_111 g_20 g_171 g_43 g_44 g_91 g_89 g_18 g_106 g_118 g_142 g_119 g_215 g_279 g_320 g_58 g_172 g_367 g_368 g_413
 * writes: g_140 g_11 g_18 g_58 g_89 g_91 g_111 g_119 g_131 g_20 g_142 g_171 g_172 g_320 g_367 g_397 g_400 g_414
 */
static int32_t * const  func_12(int32_t * const  p_13, int8_t * p_14, const int32_t * p_15, int8_t * p_16)
{ /* block id: 62 */
    uint16_t l_255 = 3UL;
    uint8_t *l_331 = (void*)0;
    uint8_t **l_330 = &l_331;
    int32_t l_366 = (-1L);
    int16_t *l_394 = &g_140;
    int32_t l_408[7][3] = {{0x80B6D513L,0xA4F2D4D6L,(-1L)},{(-4L),(-4L),(-1L)},{0xA4F2D4D6L,0x80B6D513L,(-1L)},{0x80B6D513L,0xA4F2D4D6L,(-1L)},{(-4L),(-4L),(-1L)},{0xA4F2D4D6L,0x80B6D513L,(-1L)},{0x80B6D513L,0xA4F2D4D6L,(-1L)}};
    uint64_t l_410 = 0xE30274D757702AA3LL;
    int i, j;
    for (g_140 = 21; (g_140 >= (-9)); g_140 = safe_sub_func_int64_t_s_s(g_140, 8))
    { /* block id: 65 */
        uint64_t *l_252 = &g_11;
        int32_t l_259[2];
        const int8_t ** const l_275 = &g_44;
        uint8_t *l_306 = &g_111;
        uint8_t **l_305 = &l_306;
        int64_t *l_313 = &g_131[2];
        union U0 l_386[5][3][9] = {{{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}}},{{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}}},{{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}}},{{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}}},{{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}},{{0},{0},{0},{0},{0},{0},{0},{0},{0}}}};
        uint16_t *l_387 = &g_89[4][1];
        int64_t l_395[2][5][1] = {{{0x7C8B32E1C4210C5FLL},{0x1C9E3581CE634954LL},{0x7C8B32E1C4210C5FLL},{0x1C9E3581CE634954LL},{0x7C8B32E1C4210C5FLL}},{{0x1C9E3581CE634954LL},{0x7C8B32E1C4210C5FLL},{0x1C9E3581CE634954LL},{0x7C8B32E1C4210C5FLL},{0x1C9E3581CE634954LL}}};
        int i, j, k;
        for (i = 0; i < 2; i++)
            l_259[i] = 9L;
        if (((safe_mul_func_uint8_t_u_u((((safe_unary_minus_func_uint64_t_u((--(*l_252)))) ^ l_255) ^ (9UL == (safe_unary_minus_func_uint64_t_u((safe_rshift_func_uint16_t_u_u((l_259[1] , g_131[1]), (((((safe_div_func_uint32_t_u_u((safe_div_func_int8_t_s_s(((safe_mul_func_int8_t_s_s((0x5E15L || (((safe_mul_func_uint8_t_u_u(g_111, (safe_div_func_uint16_t_u_u(l_255, g_140)))) ^ l_255) ^ (*p_14))), 0x40L)) == 2UL), g_131[2])), g_171)) ^ l_259[1]) , (**g_43)) && l_255) ^ l_259[0]))))))), l_259[1])) | 65535UL))
        { /* block id: 67 */
            int16_t l_272 = 0xB62AL;
            union U0 l_280 = {0};
            int32_t l_302 = (-1L);
            uint8_t ** const l_329 = &l_306;
            uint32_t l_364 = 0xFB86A834L;
            (*p_13) = ((safe_mod_func_uint8_t_u_u(l_272, ((safe_mod_func_uint32_t_u_u(l_259[1], (func_39(g_91[6], l_275, func_24(((l_255 <= (l_255 | 0x64E4L)) && (safe_mul_func_int16_t_s_s(l_272, l_259[0]))), l_259[1], g_89[1][2])) , 0x31ABC1FEL))) || g_20))) || 7UL);
            if ((*g_215))
                break;
            if ((*p_13))
                break;
            if (l_255)
            { /* block id: 71 */
                if (l_272)
                    break;
            }
            else
            { /* block id: 73 */
                union U0 l_278 = {0};
                int32_t l_283 = 0L;
                if ((((l_272 , ((l_278 , (g_279[2] == g_279[2])) >= l_255)) , l_272) ^ ((&l_272 == (l_280 , (void*)0)) & 9UL)))
                { /* block id: 74 */
                    uint8_t *l_289 = (void*)0;
                    uint8_t *l_290 = &g_111;
                    int64_t l_303 = 1L;
                    int16_t *l_363 = &l_272;
                    int32_t *l_365 = &g_171;
                    if ((((safe_mul_func_int16_t_s_s(g_89[2][2], (l_283 != (safe_add_func_int16_t_s_s((l_283 || 1UL), (safe_unary_minus_func_int16_t_s((safe_add_func_uint64_t_u_u(((*l_252) = ((1L >= l_283) <= 0xD2L)), g_18[8]))))))))) || (++(*l_290))) < (l_272 < l_283)))
                    { /* block id: 77 */
                        int32_t l_299 = (-1L);
                        (*g_215) ^= (safe_lshift_func_uint16_t_u_s((((l_255 ^ (safe_mul_func_int16_t_s_s((0L >= ((*p_13) ^ l_283)), ((((safe_lshift_func_int8_t_s_u(((*p_16) || l_299), 1)) , g_91[7]) <= ((safe_rshift_func_int8_t_s_u((((l_272 >= l_302) , l_259[1]) < l_255), g_18[3])) , 0x7681339926BE4E2FLL)) >= l_283)))) >= l_283) && l_303), l_259[1]));
                    }
                    else
                    { /* block id: 79 */
                        uint8_t **l_304[3];
                        int i;
                        for (i = 0; i < 3; i++)
                            l_304[i] = &l_289;
                        l_305 = l_304[1];
                        p_15 = func_34(l_283, g_106, (safe_lshift_func_int16_t_s_u(((((safe_mod_func_uint64_t_u_u(((*l_252)++), 1UL)) , ((void*)0 != l_313)) == (safe_sub_func_int64_t_s_s((((*l_313) = (safe_sub_func_uint64_t_u_u((l_255 & ((g_140 , (safe_mul_func_uint16_t_u_u((((**g_43) == (g_320 |= 0x34L)) ^ l_283), l_303))) || 0x94L)), l_255))) <= l_283), g_119[1][0][0]))) == 0UL), g_111)), l_303);
                    }
                    for (l_283 = 18; (l_283 > (-8)); --l_283)
                    { /* block id: 88 */
                        uint16_t *l_340 = (void*)0;
                        uint16_t *l_341 = &g_91[7];
                        int32_t l_348 = 0x878E6586L;
                        uint32_t *l_349 = (void*)0;
                        uint32_t *l_350 = &g_172;
                        uint64_t l_351 = 0xD169B05E94A68FEALL;
                        (*p_13) = (safe_lshift_func_int8_t_s_u(1L, 1));
                        (*p_13) = (safe_sub_func_int64_t_s_s((l_303 ^ (safe_div_func_uint8_t_u_u((l_329 != l_330), ((safe_mod_func_int64_t_s_s((safe_add_func_uint16_t_u_u(((safe_lshift_func_int8_t_s_u((l_302 <= ((safe_sub_func_uint16_t_u_u((++(*l_341)), 0x7590L)) || (((0xEFD4EDF9L <= (((((((*l_350) &= (safe_rshift_func_uint16_t_u_u((safe_div_func_uint8_t_u_u((((g_320 || ((*l_252) = (g_58 != g_131[1]))) | l_348) || g_91[5]), 0x5BL)), l_259[1]))) , (-4L)) , l_348) , (*p_13)) | 0x1AC8A185L) ^ g_142)) && 0xED18002EL) > l_302))), 4)) , l_303), 0xC588L)), l_259[1])) & l_259[1])))), l_351));
                    }
                    (*l_365) |= ((*g_215) = ((((((*l_306) = (+(safe_rshift_func_uint8_t_u_s((g_172 || (*p_16)), 7)))) <= (safe_sub_func_uint32_t_u_u((l_283 & (((*l_363) = (safe_add_func_uint64_t_u_u(0x679242BF8CB437D6LL, (((*p_13) = ((((l_259[1] || l_303) > (((safe_div_func_uint16_t_u_u(((l_283 , g_140) > (safe_add_func_uint8_t_u_u((g_131[0] != g_58), g_91[7]))), 0x04B7L)) <= (*p_14)) , g_20)) ^ 0xFB1A346EL) ^ 8UL)) > (-4L))))) <= g_119[1][0][4])), l_364))) >= l_259[1]) || l_303) | 0x05CBL));
                    l_366 = l_283;
                }
                else
                { /* block id: 101 */
                    volatile int32_t * volatile *l_369 = &g_367;
                    (*l_369) = g_367;
                }
                if (l_255)
                    break;
                if ((*g_367))
                    break;
            }
        }
        else
        { /* block id: 107 */
            uint16_t *l_388 = &g_89[0][6];
            int32_t l_391 = 0xE127DB23L;
            int16_t l_396 = (-1L);
            int8_t *l_398 = &g_320;
            int8_t *l_399 = &g_400;
            (*g_215) = (safe_div_func_int8_t_s_s((**g_43), (((*l_399) = ((*l_398) = (safe_sub_func_int32_t_s_s((!(g_397 = ((safe_div_func_uint8_t_u_u((!((((*l_306) = (safe_rshift_func_uint16_t_u_u((((*l_252) |= ((((safe_mul_func_int8_t_s_s((safe_lshift_func_int16_t_s_s((safe_rshift_func_uint16_t_u_s(((l_386[3][1][2] , l_387) != l_388), 15)), (safe_rshift_func_uint16_t_u_u(2UL, l_391)))), (l_396 = ((safe_mul_func_uint16_t_u_u(0x1812L, ((l_394 != (void*)0) == l_395[1][2][0]))) || 0x4648E599L)))) == (*g_367)) , (*g_44)) , 1UL)) > 3L), l_259[1]))) , l_259[0]) <= 1UL)), (*p_14))) != (-4L)))), 7UL)))) && g_171)));
            return p_13;
        }
    }
    for (l_366 = 0; (l_366 == (-30)); l_366--)
    { /* block id: 120 */
        int32_t *l_403 = &g_18[1];
        int32_t *l_404 = &g_142;
        int32_t *l_405 = (void*)0;
        int32_t l_406 = 0x885F1111L;
        int32_t *l_407 = &l_406;
        int32_t *l_409[5];
        int i;
        for (i = 0; i < 5; i++)
            l_409[i] = &l_408[4][0];
        --l_410;
        (*g_413) = &g_368;
    }
    return &g_18[4];
}


/* ------------------------------------------ */
/* 
 * reads :
 * writes:
 */
static int8_t * func_24(int16_t  p_25, const uint16_t  p_26, uint32_t  p_27)
{ /* block id: 59 */
    int16_t **l_245 = (void*)0;
    int8_t *l_246 = &g_20;
    l_245 = l_245;
    return l_246;
}


/* ------------------------------------------ */
/* 
 * reads : g_43 g_18 g_20 g_89 g_106 g_111 g_44 g_11 g_118 g_91 g_131 g_142 g_119 g_171 g_215 g_58 g_239
 * writes: g_18 g_58 g_89 g_91 g_111 g_11 g_119 g_131 g_20 g_142 g_171 g_172 g_215 g_211
 */
static int8_t * func_30(const uint8_t  p_31)
{ /* block id: 6 */
    int8_t *l_45 = (void*)0;
    uint64_t *l_178 = &g_11;
    int8_t *l_179 = (void*)0;
    int8_t *l_180 = &g_20;
    int32_t l_181 = 0x5250D909L;
    union U0 l_182 = {0};
    int32_t l_183[4];
    int8_t l_184 = (-5L);
    int32_t *l_214 = &l_183[1];
    int32_t **l_213[7][6][5] = {{{&l_214,&l_214,(void*)0,&l_214,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,(void*)0,&l_214,(void*)0},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,(void*)0,(void*)0,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214}},{{&l_214,&l_214,(void*)0,(void*)0,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,(void*)0,&l_214,(void*)0},{(void*)0,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,(void*)0,&l_214,&l_214,&l_214}},{{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,&l_214,(void*)0,&l_214},{&l_214,(void*)0,(void*)0,&l_214,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214},{(void*)0,&l_214,&l_214,&l_214,(void*)0},{&l_214,&l_214,&l_214,&l_214,&l_214}},{{&l_214,(void*)0,&l_214,&l_214,(void*)0},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,&l_214,(void*)0,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214}},{{&l_214,(void*)0,&l_214,&l_214,(void*)0},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,(void*)0,&l_214,(void*)0},{(void*)0,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,(void*)0,(void*)0,&l_214},{(void*)0,&l_214,&l_214,&l_214,(void*)0}},{{&l_214,(void*)0,&l_214,(void*)0,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,&l_214,(void*)0,&l_214},{&l_214,&l_214,&l_214,&l_214,(void*)0},{&l_214,(void*)0,&l_214,(void*)0,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214}},{{&l_214,&l_214,&l_214,(void*)0,(void*)0},{&l_214,&l_214,&l_214,&l_214,&l_214},{&l_214,&l_214,&l_214,(void*)0,(void*)0},{&l_214,&l_214,(void*)0,&l_214,&l_214},{(void*)0,(void*)0,&l_214,(void*)0,&l_214},{&l_214,&l_214,&l_214,&l_214,&l_214}}};
    uint32_t l_216 = 4294967295UL;
    uint16_t *l_222[6] = {&g_91[7],&g_91[7],&g_91[7],&g_91[7],&g_91[7],&g_91[7]};
    uint16_t **l_223[2][4][2];
    uint16_t *l_224 = &g_89[0][3];
    uint8_t *l_230 = (void*)0;
    uint8_t *l_231 = &g_111;
    int16_t *l_232 = &g_58;
    const int8_t ** const l_237 = &g_44;
    int8_t *l_238 = &l_184;
    int i, j, k;
    for (i = 0; i < 4; i++)
        l_183[i] = (-4L);
    for (i = 0; i < 2; i++)
    {
        for (j = 0; j < 4; j++)
        {
            for (k = 0; k < 2; k++)
                l_223[i][j][k] = &l_222[2];
        }
    }
    g_211[4][1] = (g_215 = func_34((func_39(p_31, g_43, l_45) , (safe_sub_func_int64_t_s_s(((&l_45 != &g_44) || (safe_mul_func_uint16_t_u_u(((l_178 != l_178) , (l_181 = ((((((*l_180) |= p_31) , (-1L)) == l_181) <= (-1L)) , p_31))), 6L))), g_171))), l_182, l_183[2], l_184));
    (*g_215) = (*l_214);
    ++l_216;
    (*g_118) = (safe_unary_minus_func_int8_t_s(((*l_214) = ((safe_rshift_func_int8_t_s_s(((((func_39(((*l_178) = ((((l_224 = l_222[5]) != &g_91[1]) || (1UL < ((((safe_mul_func_int16_t_s_s(((*l_232) = (safe_add_func_uint8_t_u_u((+g_89[0][0]), ((*l_231) &= g_58)))), p_31)) , l_178) != &g_131[1]) == ((safe_lshift_func_int8_t_s_u((safe_mod_func_uint16_t_u_u(p_31, 4UL)), g_119[1][0][0])) , p_31)))) ^ (-8L))), l_237, l_238) , g_239) == (void*)0) && 255UL) > p_31), 1)) , (*l_214)))));
    return &g_20;
}


/* ------------------------------------------ */
/* 
 * reads : g_131 g_142 g_91 g_119
 * writes: g_111 g_119
 */
static int32_t * func_34(uint32_t  p_35, union U0  p_36, uint16_t  p_37, int8_t  p_38)
{ /* block id: 41 */
    int32_t l_187[1];
    uint8_t *l_188 = &g_111;
    uint8_t l_193 = 0x50L;
    uint16_t *l_198 = &g_89[6][3];
    uint16_t **l_199 = (void*)0;
    uint16_t **l_200 = &l_198;
    int32_t *l_212 = &g_119[1][0][0];
    int i;
    for (i = 0; i < 1; i++)
        l_187[i] = 0xEB220E44L;
    (*l_212) |= (((g_131[2] != ((safe_rshift_func_uint8_t_u_u(((*l_188) = l_187[0]), 6)) != ((safe_mul_func_int16_t_s_s(((l_193 || (((safe_sub_func_uint32_t_u_u((((safe_sub_func_uint32_t_u_u(0x4B6F7AECL, p_35)) | (((*l_200) = l_198) == ((safe_add_func_int64_t_s_s(g_131[0], (safe_sub_func_int32_t_s_s((safe_sub_func_int32_t_s_s((safe_mul_func_int8_t_s_s(0L, ((safe_lshift_func_uint8_t_u_u((p_36 , g_142), g_91[3])) || g_131[1]))), l_193)), 0L)))) , &g_91[3]))) >= l_193), p_38)) < p_37) == l_193)) >= (-6L)), 0x0F72L)) || (-1L)))) , l_193) , l_187[0]);
    return &g_142;
}


/* ------------------------------------------ */
/* 
 * reads : g_18 g_20 g_89 g_106 g_111 g_44 g_11 g_43 g_118 g_91 g_131 g_142 g_119
 * writes: g_18 g_58 g_89 g_91 g_111 g_11 g_119 g_131 g_20 g_142 g_171 g_172
 */
static union U0  func_39(uint64_t  p_40, const int8_t ** const  p_41, int8_t * p_42)
{ /* block id: 7 */
    int32_t l_46 = 0xE3D4752EL;
    int32_t *l_47 = &g_18[7];
    int16_t *l_57 = &g_58;
    int8_t *l_66 = &g_20;
    int8_t **l_65 = &l_66;
    union U0 l_79 = {0};
    int8_t **l_145[2];
    int8_t ***l_144 = &l_145[1];
    int8_t l_173 = 0x91L;
    int i;
    for (i = 0; i < 2; i++)
        l_145[i] = &l_66;
    (*l_47) |= l_46;
    (*l_47) = (((*l_47) , (safe_unary_minus_func_uint64_t_u(((1L ^ ((((*l_47) , p_40) == (g_172 = (safe_mod_func_int64_t_s_s(0L, ((safe_lshift_func_int8_t_s_s(((g_171 = (safe_lshift_func_int8_t_s_u((safe_div_func_int16_t_s_s(((*l_57) = p_40), func_59((((l_65 != ((*l_144) = func_67(l_57, (safe_rshift_func_int16_t_s_s((safe_sub_func_uint16_t_u_u((safe_add_func_uint16_t_u_u(p_40, 0x6A91L)), 0x4203L)), g_20)), p_40, l_79, p_40))) != p_40) & g_142), (*l_47), p_40, p_40, l_79))), p_40))) , (*l_47)), 1)) && (*l_47)))))) > l_173)) || 0xFD6F7C90A92FA667LL)))) , p_40);
    return g_106;
}


/* ------------------------------------------ */
/* 
 * reads : g_119 g_20 g_89 g_118 g_111 g_11 g_142
 * writes: g_111 g_20 g_142
 */
static uint16_t  func_59(const uint16_t  p_60, int64_t  p_61, uint8_t  p_62, uint8_t  p_63, union U0  p_64)
{ /* block id: 29 */
    int32_t *l_150 = &g_119[0][0][1];
    uint8_t *l_165 = &g_111;
    int8_t *l_168 = &g_20;
    int32_t l_169[2][10][5] = {{{9L,0x1531938CL,0x1531938CL,9L,0x1531938CL},{9L,9L,0xC9D1C1E5L,9L,9L},{0x1531938CL,9L,0x1531938CL,0x1531938CL,9L},{9L,0x1531938CL,0x1531938CL,9L,0x1531938CL},{9L,9L,0xC9D1C1E5L,9L,9L},{0x1531938CL,9L,0x1531938CL,0x1531938CL,9L},{9L,0x1531938CL,0x1531938CL,9L,0x1531938CL},{9L,9L,0xC9D1C1E5L,9L,9L},{0x1531938CL,9L,0x1531938CL,0x1531938CL,0x1531938CL},{0x1531938CL,0xC9D1C1E5L,0xC9D1C1E5L,0x1531938CL,0xC9D1C1E5L}},{{0x1531938CL,0x1531938CL,9L,0x1531938CL,0x1531938CL},{0xC9D1C1E5L,0x1531938CL,0xC9D1C1E5L,0xC9D1C1E5L,0x1531938CL},{0x1531938CL,0xC9D1C1E5L,0xC9D1C1E5L,0x1531938CL,0xC9D1C1E5L},{0x1531938CL,0x1531938CL,9L,0x1531938CL,0x1531938CL},{0xC9D1C1E5L,0x1531938CL,0xC9D1C1E5L,0xC9D1C1E5L,0x1531938CL},{0x1531938CL,0xC9D1C1E5L,0xC9D1C1E5L,0x1531938CL,0xC9D1C1E5L},{0x1531938CL,0x1531938CL,9L,0x1531938CL,0x1531938CL},{0xC9D1C1E5L,0x1531938CL,0xC9D1C1E5L,0xC9D1C1E5L,0x1531938CL},{0x1531938CL,0xC9D1C1E5L,0xC9D1C1E5L,0x1531938CL,0xC9D1C1E5L},{0x1531938CL,0x1531938CL,9L,0x1531938CL,0x1531938CL}}};
    int32_t *l_170 = &g_142;
    int i, j, k;
    (*l_170) &= (((safe_rshift_func_int16_t_s_u(((0x960EBF8190269B8FLL <= (safe_sub_func_uint8_t_u_u(2UL, ((void*)0 != l_150)))) , ((safe_rshift_func_uint8_t_u_u(((((safe_lshift_func_int8_t_s_u((*l_150), (safe_lshift_func_int8_t_s_u((l_169[1][7][2] &= ((safe_sub_func_uint16_t_u_u((safe_lshift_func_int16_t_s_s((*l_150), 8)), ((*l_150) | ((*l_168) &= (safe_mul_func_uint16_t_u_u(((safe_add_func_uint8_t_u_u(((*l_165) = p_60), ((safe_mul_func_int16_t_s_s(((p_62 != 0x512F4ECBCE0EE989LL) || 0x82BA979D12DC1848LL), (*l_150))) > 4294967294UL))) < (*l_150)), p_60)))))) | (*l_150))), g_89[6][5])))) > (*g_118)) , g_111) >= g_119[1][0][1]), (*l_150))) , p_60)), g_11)) || 0x426DL) == (*l_150));
    return g_89[0][3];
}


/* ------------------------------------------ */
/* 
 * reads : g_18 g_89 g_20 g_106 g_111 g_44 g_11 g_43 g_118 g_91 g_131
 * writes: g_89 g_91 g_111 g_11 g_119 g_131
 */
static int8_t ** func_67(int16_t * const  p_68, int16_t  p_69, uint8_t  p_70, union U0  p_71, uint32_t  p_72)
{ /* block id: 10 */
    int8_t **l_112 = (void*)0;
    int32_t l_117[4][9][7] = {{{0x9175669BL,(-10L),0xF8205C77L,3L,(-8L),0L,0x24BAAF50L},{0x2667C2D9L,(-1L),0x178D33F6L,3L,1L,1L,(-6L)},{0xD83FE2F7L,(-1L),0L,0x23A7432CL,1L,0x3BBBF133L,0L},{(-4L),0L,0xE06C7929L,0x51BCBD03L,0L,(-6L),0L},{0L,(-1L),8L,(-6L),0x83BB0DECL,0L,0L},{1L,0x8ED0E11BL,0L,0x178D33F6L,0x8B2F8DC5L,7L,0x8B2F8DC5L},{0x879556C6L,9L,9L,0x879556C6L,1L,(-4L),0x7CD18324L},{0x679804E6L,1L,(-3L),0x2667C2D9L,0x5195E1C3L,0x914BD6B4L,0L},{0x0BB50B9AL,5L,0x3E679C8AL,0xFD02F95CL,0L,(-6L),0x7CD18324L}},{{0x8ED0E11BL,7L,(-4L),0x47412260L,(-6L),1L,0x8B2F8DC5L},{0x24BAAF50L,0L,0L,(-10L),8L,0L,0L},{(-3L),0x914BD6B4L,(-1L),(-1L),0xFFE4DFDCL,1L,0L},{0x7CD18324L,0x3F460CB5L,0xDC7DF631L,8L,0x3BA0E388L,(-6L),0L},{0xF9F6C923L,(-6L),(-1L),(-9L),(-9L),(-1L),(-6L)},{(-8L),0x260AD585L,(-6L),0L,0L,0xF8205C77L,0x24BAAF50L},{0L,0x2667C2D9L,(-8L),(-1L),0xD267AFBDL,0x51BCBD03L,1L},{0x2945289EL,0x7CD18324L,(-1L),0L,0x0BB50B9AL,(-8L),0xF8205C77L},{2L,1L,0x1F483071L,(-9L),(-1L),0x961BCE71L,(-10L)}},{{9L,0x8232C377L,0x3F460CB5L,8L,2L,1L,0x3BBBF133L},{0L,4L,0L,(-1L),0x5195E1C3L,1L,2L},{0L,(-1L),0x046699CBL,8L,5L,(-2L),(-2L)},{0L,0L,0x178D33F6L,0L,0L,(-1L),4L},{(-1L),0L,(-1L),0x3BBBF133L,0x879556C6L,1L,(-6L)},{0x8ED0E11BL,0x50DEC7D6L,1L,0x679804E6L,0x2B8ADFEAL,(-5L),0xD267AFBDL},{(-1L),0x3BBBF133L,(-4L),(-2L),0x2945289EL,0L,1L},{0L,(-8L),1L,4L,(-3L),0x914BD6B4L,(-1L)},{0L,0x72454177L,0x0BB50B9AL,0x3F460CB5L,0x3BBBF133L,3L,0L}},{{(-9L),0x2667C2D9L,0x1F483071L,0x8B2F8DC5L,1L,1L,4L},{3L,0L,0x7CD18324L,0L,0xD83FE2F7L,0L,0x7CD18324L},{0x721FB129L,0x721FB129L,0xFFE4DFDCL,(-4L),0L,1L,0x50DEC7D6L},{(-1L),(-5L),9L,0L,0x0BB50B9AL,(-1L),0L},{0x914BD6B4L,0L,3L,0x961BCE71L,0L,0x9989FA4EL,0x679804E6L},{0x736D3DFDL,(-8L),0L,0x1534BB8EL,0xD83FE2F7L,0x3BBBF133L,0xA24168CBL},{0xE548C151L,(-4L),(-8L),(-1L),1L,(-1L),(-3L)},{0x9175669BL,(-2L),0x83BB0DECL,0L,0x3BBBF133L,(-1L),(-1L)},{1L,7L,0x47412260L,0x2B8ADFEAL,(-3L),0x1F483071L,0x322C85E5L}}};
    int32_t *l_122 = &g_119[1][0][0];
    uint16_t *l_123 = &g_91[1];
    int32_t *l_128 = &g_18[8];
    int32_t **l_127 = &l_128;
    int64_t *l_129 = (void*)0;
    int64_t *l_130[6][2][6] = {{{(void*)0,(void*)0,(void*)0,(void*)0,&g_131[1],(void*)0},{&g_131[1],&g_131[1],(void*)0,&g_131[1],&g_131[1],&g_131[1]}},{{(void*)0,(void*)0,&g_131[1],&g_131[1],(void*)0,(void*)0},{&g_131[1],&g_131[1],&g_131[1],(void*)0,&g_131[1],&g_131[1]}},{{(void*)0,&g_131[1],(void*)0,(void*)0,(void*)0,(void*)0},{(void*)0,(void*)0,(void*)0,(void*)0,&g_131[1],(void*)0}},{{&g_131[1],&g_131[1],(void*)0,&g_131[1],&g_131[1],&g_131[1]},{(void*)0,(void*)0,&g_131[1],&g_131[1],(void*)0,(void*)0}},{{&g_131[1],&g_131[1],&g_131[1],(void*)0,&g_131[1],&g_131[1]},{(void*)0,&g_131[1],(void*)0,(void*)0,(void*)0,(void*)0}},{{(void*)0,(void*)0,(void*)0,(void*)0,&g_131[1],(void*)0},{&g_131[1],&g_131[1],(void*)0,&g_131[1],&g_131[1],&g_131[1]}}};
    uint8_t *l_138[6] = {&g_111,&g_111,&g_111,&g_111,&g_111,&g_111};
    int16_t *l_139[3];
    int32_t l_143 = (-1L);
    int i, j, k;
    for (i = 0; i < 3; i++)
        l_139[i] = &g_140;
    for (p_69 = 0; (p_69 > 12); p_69 = safe_add_func_uint16_t_u_u(p_69, 8))
    { /* block id: 13 */
        uint16_t *l_88 = &g_89[0][3];
        uint16_t *l_90 = &g_91[7];
        int32_t l_107 = 0L;
        uint8_t *l_108 = (void*)0;
        uint8_t *l_109 = (void*)0;
        uint8_t *l_110 = &g_111;
        uint64_t *l_113 = (void*)0;
        uint64_t *l_114 = (void*)0;
        uint64_t *l_115 = (void*)0;
        uint64_t *l_116 = &g_11;
        (*g_118) = (safe_div_func_uint64_t_u_u((safe_mul_func_uint8_t_u_u(((safe_mod_func_int16_t_s_s(g_18[1], ((*l_90) = ((*l_88) |= 1UL)))) | (((((((safe_mul_func_int8_t_s_s(((safe_mul_func_int16_t_s_s((safe_mul_func_uint16_t_u_u(p_72, ((g_20 >= (safe_rshift_func_uint16_t_u_u((safe_lshift_func_uint8_t_u_s((safe_sub_func_int16_t_s_s((safe_rshift_func_uint16_t_u_u((((*l_116) &= ((((((g_106 , ((0xB60AL & (((((l_107 ^ (g_106 , ((*l_110) |= p_72))) & 0xFB03350090E7AF82LL) && 0x8A60B10F657D2A19LL) <= 1L) || (*g_44))) , (void*)0)) == l_112) && 0x86L) , (void*)0) != &p_69) , g_18[4])) ^ g_18[6]), 0)), g_20)), p_69)), l_107))) >= 65535UL))), l_107)) != l_117[1][7][5]), (**g_43))) , &g_44) != (void*)0) || p_72) , p_70) | p_70) || 18446744073709551615UL)), 1L)), p_72));
    }
    l_143 = ((safe_sub_func_uint16_t_u_u(((void*)0 == l_112), (((*l_122) = 0x92987305L) == (((*l_123)--) && (((~(g_131[2] = (7L != (&l_117[1][7][5] == ((*l_127) = &l_117[3][3][5]))))) & 0x16371A01L) , ((safe_mul_func_int8_t_s_s(((safe_mod_func_int16_t_s_s((((((*l_128) &= (safe_rshift_func_uint8_t_u_u((g_111 = g_18[8]), 2))) | g_131[1]) == 0x92L) > 1L), 0xAA63L)) , 0x72L), p_69)) != g_20)))))) & (*g_44));
    return l_112;
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
    transparent_crc(g_11, "g_11", print_hash_value);
    for (i = 0; i < 9; i++)
    {
        transparent_crc(g_18[i], "g_18[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_20, "g_20", print_hash_value);
    transparent_crc(g_58, "g_58", print_hash_value);
    for (i = 0; i < 8; i++)
    {
        for (j = 0; j < 7; j++)
        {
            transparent_crc(g_89[i][j], "g_89[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    for (i = 0; i < 8; i++)
    {
        transparent_crc(g_91[i], "g_91[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_111, "g_111", print_hash_value);
    for (i = 0; i < 2; i++)
    {
        for (j = 0; j < 1; j++)
        {
            for (k = 0; k < 7; k++)
            {
                transparent_crc(g_119[i][j][k], "g_119[i][j][k]", print_hash_value);
                if (print_hash_value) printf("index = [%d][%d][%d]\n", i, j, k);

            }
        }
    }
    for (i = 0; i < 4; i++)
    {
        transparent_crc(g_131[i], "g_131[i]", print_hash_value);
        if (print_hash_value) printf("index = [%d]\n", i);

    }
    transparent_crc(g_140, "g_140", print_hash_value);
    transparent_crc(g_142, "g_142", print_hash_value);
    transparent_crc(g_171, "g_171", print_hash_value);
    transparent_crc(g_172, "g_172", print_hash_value);
    transparent_crc(g_320, "g_320", print_hash_value);
    transparent_crc(g_368, "g_368", print_hash_value);
    transparent_crc(g_397, "g_397", print_hash_value);
    transparent_crc(g_400, "g_400", print_hash_value);
    transparent_crc(g_512, "g_512", print_hash_value);
    transparent_crc(g_543, "g_543", print_hash_value);
    transparent_crc(g_575, "g_575", print_hash_value);
    platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);
    return 0;
}

/************************ statistics *************************
XXX max struct depth: 0
breakdown:
   depth: 0, occurrence: 113
XXX total union variables: 9

XXX non-zero bitfields defined in structs: 1
XXX zero bitfields defined in structs: 0
XXX const bitfields defined in structs: 1
XXX volatile bitfields defined in structs: 0
XXX structs with bitfields in the program: 11
breakdown:
   indirect level: 0, occurrence: 9
   indirect level: 1, occurrence: 2
XXX full-bitfields structs in the program: 0
breakdown:
XXX times a bitfields struct's address is taken: 2
XXX times a bitfields struct on LHS: 0
XXX times a bitfields struct on RHS: 15
XXX times a single bitfield on LHS: 0
XXX times a single bitfield on RHS: 0

XXX max expression depth: 41
breakdown:
   depth: 1, occurrence: 78
   depth: 2, occurrence: 14
   depth: 5, occurrence: 2
   depth: 10, occurrence: 1
   depth: 13, occurrence: 1
   depth: 16, occurrence: 1
   depth: 18, occurrence: 2
   depth: 19, occurrence: 1
   depth: 22, occurrence: 4
   depth: 23, occurrence: 1
   depth: 24, occurrence: 1
   depth: 25, occurrence: 3
   depth: 27, occurrence: 4
   depth: 29, occurrence: 2
   depth: 30, occurrence: 1
   depth: 34, occurrence: 1
   depth: 37, occurrence: 1
   depth: 40, occurrence: 1
   depth: 41, occurrence: 1

XXX total number of pointers: 184

XXX times a variable address is taken: 284
XXX times a pointer is dereferenced on RHS: 71
breakdown:
   depth: 1, occurrence: 59
   depth: 2, occurrence: 12
XXX times a pointer is dereferenced on LHS: 88
breakdown:
   depth: 1, occurrence: 88
XXX times a pointer is compared with null: 5
XXX times a pointer is compared with address of another variable: 1
XXX times a pointer is compared with another pointer: 6
XXX times a pointer is qualified to be dereferenced: 518

XXX max dereference level: 2
breakdown:
   level: 0, occurrence: 0
   level: 1, occurrence: 736
   level: 2, occurrence: 56
XXX number of pointers point to pointers: 47
XXX number of pointers point to scalars: 133
XXX number of pointers point to structs: 0
XXX percent of pointers has null in alias set: 31.5
XXX average alias set size: 1.21

XXX times a non-volatile is read: 511
XXX times a non-volatile is write: 215
XXX times a volatile is read: 23
XXX    times read thru a pointer: 4
XXX times a volatile is write: 9
XXX    times written thru a pointer: 1
XXX times a volatile is available for access: 121
XXX percentage of non-volatile access: 95.8

XXX forward jumps: 0
XXX backward jumps: 1

XXX stmts: 78
XXX max block depth: 5
breakdown:
   depth: 0, occurrence: 30
   depth: 1, occurrence: 11
   depth: 2, occurrence: 14
   depth: 3, occurrence: 9
   depth: 4, occurrence: 9
   depth: 5, occurrence: 5

XXX percentage a fresh-made variable is used: 17.5
XXX percentage an existing variable is used: 82.5
FYI: the random generator makes assumptions about the integer size. See platform.info for more details.
********************* end of statistics **********************/

