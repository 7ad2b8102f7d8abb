let acc = 0;
class C {
  static {
    this.made = acc + 1;
  }
}
console.log(acc, C.made);
