function mix(v) {
}
function f23(a24, a25) {
 for (let i29 = 0; i29 < 4; i29++) {
    const o30 = {} ;
 }
}
mix(f23(6, 296));
