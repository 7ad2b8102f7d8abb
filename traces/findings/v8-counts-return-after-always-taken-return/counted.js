function arrayExists(array, x) {
    ;__morphtrace_counts[0]++;for (var i = 0; i < array.length; i++) {;__morphtrace_counts[1]++;{
        ;__morphtrace_counts[2]++;if (array[i] == x) {;__morphtrace_counts[3]++;return true;}
    }}
}
;__morphtrace_counts[4]++;Date.prototype.formatDate = function (input,time) {
    ;__morphtrace_counts[5]++;var switches =    ["a", "A", "B", "d", "D", "F", "g", "G", "h", "H",
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
        ;__morphtrace_counts[6]++;if (self.getFullYear) {;__morphtrace_counts[7]++;{
            ;__morphtrace_counts[8]++;var newDate = new Date("January 1 2001 00:00:00 +0000");
            ;__morphtrace_counts[9]++;var x = newDate .getFullYear();
            ;__morphtrace_counts[10]++;if (x == 2001) {;__morphtrace_counts[11]++;{
                ;__morphtrace_counts[12]++;return self.getFullYear();
            }}
        }}
        ;__morphtrace_counts[13]++;y += (y < 38) ? 2000 : 1900;
        ;__morphtrace_counts[14]++;return y;
    }
    ;__morphtrace_counts[15]++;var self = this;
    ;__morphtrace_counts[16]++;var ia = input.split("");
    ;__morphtrace_counts[17]++;var ij = 0;
    ;__morphtrace_counts[18]++;while (ia[ij]) {;__morphtrace_counts[19]++;{
        ;__morphtrace_counts[20]++;if (ia[ij] == "\\") {;__morphtrace_counts[21]++;{
        }} else {;__morphtrace_counts[22]++;{
            ;__morphtrace_counts[23]++;if (arrayExists(switches,ia[ij])) {;__morphtrace_counts[24]++;{
                ;__morphtrace_counts[25]++;ia[ij] = eval(ia[ij] + "()");
            }}
        }}
        ;__morphtrace_counts[26]++;ij++;
    }}
}
;__morphtrace_counts[27]++;var date = new Date("1/1/2007 1:11:11");
;__morphtrace_counts[28]++;for (i = 0; i < 500; ++i) {;__morphtrace_counts[29]++;{
    ;__morphtrace_counts[30]++;var longFormat = date.formatDate("l, F d, Y g:i:s A");
}}
