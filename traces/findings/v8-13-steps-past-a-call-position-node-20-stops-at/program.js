var loops = 15
function morph(a, f) {
    var sin = Math.sin
    var f30 = -(50 * sin(f*Math.PI*2))
}
var a = Array()
for (var i = 0; i < loops; ++i) {
    morph(a, i/loops)
}
