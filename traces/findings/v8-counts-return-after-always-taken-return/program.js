function arrayExists(array, x) {
    for (var i = 0; i < array.length; i++) {
        if (array[i] == x) return true;
    }
}
Date.prototype.formatDate = function (input,time) {
    var switches =    ["a", "A", "B", "d", "D", "F", "g", "G", "h", "H",
                       "i", "j", "l", "L", "m", "M", "n", "O", "r", "s",
                       "S", "t", "U", "w", "W", "y", "Y", "z"];
    function A() {
    }
    function d() {
    }
    function F() {
    }
    function g() {
    }
    function i() {
    }
    function l() {
    }
    function s() {
    }
    function Y() {
        if (self.getFullYear) {
            var newDate = new Date("January 1 2001 00:00:00 +0000");
            var x = newDate .getFullYear();
            if (x == 2001) {
                return self.getFullYear();
            }
        }
        y += (y < 38) ? 2000 : 1900;
        return y;
    }
    var self = this;
    var ia = input.split("");
    var ij = 0;
    while (ia[ij]) {
        if (ia[ij] == "\\") {
        } else {
            if (arrayExists(switches,ia[ij])) {
                ia[ij] = eval(ia[ij] + "()");
            }
        }
        ij++;
    }
}
var date = new Date("1/1/2007 1:11:11");
for (i = 0; i < 500; ++i) {
    var longFormat = date.formatDate("l, F d, Y g:i:s A");
}
