package main

var log string

func note(s string) {
	log += s
}

func work() {
	defer note("done")
	log += "work "
}

func main() {
	work()
	println(log)
}
