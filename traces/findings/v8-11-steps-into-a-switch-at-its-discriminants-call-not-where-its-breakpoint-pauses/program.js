let acc = 0;
acc = 1;
switch (Math.abs(acc) % 3) {
  case 1:
    const v = 7;
    acc = v;
    break;
}
console.log(acc);
