function mix(v) {
}
async function af1(a2) {
}
class C1 {
 #count = 979;
 static made = 0;
 static {
 }
 constructor(start) {
 }
 get total() {
 }
 set total(v) {
 }
 #scaled(n) {
 }
 bump(n) {
 }
}
function* gen3(a4) {
}
const { x: v6, y: v7 = 5 } = { x: 3 };
let v13 = 2;
const { x: v16, y: v17 = 1 } = { x: v6 };
for (const y18 of gen3( )) {
}
async function main() {
 mix((((v17 > v17 ? 1 : v13) + (await af1(v16))) | 0));
 let v20 = v17;
 if (v17 >= ((v13 - 3) | 0)) {
 if ((v6 > 3 && v7 > c19.total)) {
 } else {
 const o22 = {} ;
 o22.y = (o22.x + (await af1(v16))) | 0;
 }
 const c23 = new C1(((v20 + v17) | 0));
 } else {
 }
}
main().then(
 );
