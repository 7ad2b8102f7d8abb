fnName("arg1", "arg2", "arg3");
function fnName(param, param2, param) {
	var someNotJsonSerializable2 = NaN;
}
