def gen():
    yield 1
    done = True


for v in gen():
    pass
print("after the loop")
