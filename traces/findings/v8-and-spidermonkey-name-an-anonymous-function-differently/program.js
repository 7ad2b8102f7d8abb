Math.random = (function() {
    return function() {
        return (seed & 0xFFFFFFF) / 0x10000000;
    };
}());
function doTest()
{
   for (var s=0;s<4000;s++)
   {
      var zip = makeNumber(4);
   }
}
function makeNumber(n)
{
   for (var i=0;i<n;i++)
   {
      var l = Math.floor(9*Math.random());
   }
}
doTest();
