function doTest()
{
   for (var k=0;k<4000;k++)
   {
      username = makeName(6);
   }
}
function makeName(n)
{
   var tmp = "";
   for (var i=0;i<n;i++)
   {
      var l = Math.floor(26*Math.random());
   }
}
doTest();
