"""Forty small functions; the breakpoints go on their bodies' lines."""

total = 0

def f0(x):
    return x + 0

def f1(x):
    return x + 1

def f2(x):
    return x + 2

def f3(x):
    return x + 3

def f4(x):
    return x + 4

def f5(x):
    return x + 5

def f6(x):
    return x + 6

def f7(x):
    return x + 7

def f8(x):
    return x + 8

def f9(x):
    return x + 9

def f10(x):
    return x + 10

def f11(x):
    return x + 11

def f12(x):
    return x + 12

def f13(x):
    return x + 13

def f14(x):
    return x + 14

def f15(x):
    return x + 15

def f16(x):
    return x + 16

def f17(x):
    return x + 17

def f18(x):
    return x + 18

def f19(x):
    return x + 19

def f20(x):
    return x + 20

def f21(x):
    return x + 21

def f22(x):
    return x + 22

def f23(x):
    return x + 23

def f24(x):
    return x + 24

def f25(x):
    return x + 25

def f26(x):
    return x + 26

def f27(x):
    return x + 27

def f28(x):
    return x + 28

def f29(x):
    return x + 29

def f30(x):
    return x + 30

def f31(x):
    return x + 31

def f32(x):
    return x + 32

def f33(x):
    return x + 33

def f34(x):
    return x + 34

def f35(x):
    return x + 35

def f36(x):
    return x + 36

def f37(x):
    return x + 37

def f38(x):
    return x + 38

def f39(x):
    return x + 39


for i in range(40):
    total += globals()["f%d" % i](i)
print(total)
