var fn = function() {
 try {
 } catch(e) {
 return 'catch';
 } finally {
 }
};
