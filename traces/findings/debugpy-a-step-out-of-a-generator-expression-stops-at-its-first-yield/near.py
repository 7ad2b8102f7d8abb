seen = []


def note(x):
    seen.append(x)
    return x * 2


def doubles(xs):
    for x in xs:
        yield note(x)


def main():
    xs = [1, 2, 3]
    doubled = tuple(doubles(xs))
    return doubled


print(main())
