for (const y4 of gen1(5)) {
}
