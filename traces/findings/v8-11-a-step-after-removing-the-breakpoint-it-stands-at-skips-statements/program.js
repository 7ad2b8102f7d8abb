let acc = 0;
let v1 = 9;
acc = v1 + 1;
