const v16 = ((7 - 142) | 0);
for (const y30 of gen8( )) {
}
