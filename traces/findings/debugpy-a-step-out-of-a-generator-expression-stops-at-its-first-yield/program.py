seen = []


def note(x):
    seen.append(x)
    return x * 2


def main():
    xs = [1, 2, 3]
    doubled = tuple(note(x) for x in xs)
    return doubled


print(main())
