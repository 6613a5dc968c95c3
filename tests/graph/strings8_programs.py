"""Programs that make strings from values known only when the graph runs (task strings8):
reports, labels chosen by conditions, numbers formatted, padding, joining, `str.upper`, `in`
on strings, printing with `sep`/`end`. `PROGRAMS`: (function, inputs) pairs that
tests/graph/test_strings8.py runs on every backend against eager Python."""

import numpy as np

A = (np.array([1.0, -2.0, 3.0]),)
B = (np.array([0.5, 4.0, -0.25, 2.0]),)
I1 = (np.array([3, 0, 5, 1]),)
I2 = (np.array([255, 16, 7]),)


def sign_bang(x):
    return [("pos" if v > 0 else "neg") + ("!" if abs(v) > 2 else "") for v in x]


def label_then_suffix(x):
    out = []
    for v in x:
        s = "big" if v > 1 else "small"
        s = s + ("+" if v > 0 else "-")
        out.append(s)
    return out


def grade_letters(x):
    grades = []
    for v in x:
        if v >= 3:
            grades.append("A")
        elif v >= 1:
            grades.append("B")
        else:
            grades.append("C")
    return "".join(grades)


def report_lines(x):
    lines = []
    for i, v in enumerate(x):
        lines.append(f"{i}: {v:6.2f}")
    return "\n".join(lines)


def padded_table(x):
    rows = [f"{'value':>8}|{'sq':<8}"]
    for v in x:
        rows.append(f"{v:>8.1f}|{v * v:<8.2f}")
    return "\n".join(rows)


def upper_label(x):
    s = "hot" if x.mean() > 1 else "cold"
    return s.upper(), s.capitalize(), len(s)


def in_string(x):
    s = "warning" if x.max() > 3 else "ok"
    return "warn" in s, s.startswith("o")


def print_sep_end(x):
    for v in x:
        print(v, "pos" if v > 0 else "neg", sep=" | ", end=";\n")
    print("done", len(x), sep="-")
    return len(x)


def print_fstring_loop(x):
    total = 0.0
    for v in x:
        total += v
        print(f"running {total:.2f}")
    return total


def status_by_threshold(x):
    m = float(x.mean())
    if m > 2:
        status = "high"
    elif m > 0:
        status = "mid"
    else:
        status = "low"
    return f"status={status} mean={m:.3f}"


def join_formatted(x):
    return ", ".join(f"{v:.1f}" for v in x)


def str_of_ints(x):
    return " ".join(str(int(v)) for v in x)


def percent_report(x):
    n = int(np.sum(x > 0))
    return "%d of %d positive (%.0f%%)" % (n, len(x), 100.0 * n / len(x))  # noqa: UP031


def format_method(x):
    return "min={:.2f} max={:.2f}".format(x.min(), x.max())  # noqa: UP032 - as users write it


def hex_codes(x):
    return [(hex(int(v)), format(int(v), "08b"), f"{int(v):o}") for v in x]


def bin_count(x):
    return bin(int(x.sum())).count("1")


def bin_text(x):
    return bin(int(x.sum()))


def chr_join(x):
    return "".join(chr(65 + int(v)) for v in x)


def repeat_bar(x):
    return "\n".join(f"{i}|" + "#" * int(v) for i, v in enumerate(x))


def accumulate_text(x):
    s = ""
    for v in x:
        s += "+" if v > 0 else "-"
    return s


def accumulate_fstring(x):
    s = ""
    for v in x:
        s = s + f"[{v:.0f}]"
    return s


def roman(x):
    vals = [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = []
    for v in x:
        n = int(v) * 7
        s = ""
        for value, sym in vals:
            while n >= value:
                s += sym
                n -= value
        out.append(s)
    return out


def while_stars(x):
    n = int(x[0])
    s = ""
    while n > 0:
        s += "*"
        n -= 1
    return s


def first_match(x):
    for v in x:
        if v > 2:
            return f"found {v}"
    return "none"


def labelled_dict(x):
    out = {}
    for i, v in enumerate(x):
        out[f"item{i}"] = "pos" if v > 0 else "neg"
    return out


def tuple_of_texts(x):
    lo = "low" if x.min() < 0 else "ok"
    hi = "high" if x.max() > 3 else "ok"
    return lo, hi, lo + "/" + hi


def zfill_and_center(x):
    s = str(int(x.sum()))
    return s.zfill(5), s.center(7, "*"), s.rjust(4), s.ljust(4, ".")


def replace_and_strip(x):
    s = f"  {x.max():.1f}  "
    return s.strip(), s.replace(".", ","), s.split()


def print_list_of_labels(x):
    labels = ["pos" if v > 0 else "neg" for v in x]
    print(labels)
    print(*labels, sep=",")
    return len(labels)


def str_of_labels(x):
    labels = ["pos" if v > 0 else "neg" for v in x]
    return str(labels), f"{labels}", "%s" % (labels,)  # noqa: UP031


def len_of_built(x):
    s = ""
    n = int(x[0])
    while n > 0:
        s += "ab"
        n -= 1
    return len(s), s.upper()


def state_machine(x):
    state = "a"
    for _v in x:
        if state == "a":
            state = "b"
        elif state == "b":
            state = "c"
        elif state == "c":
            state = "d"
        else:
            state = "a"
    return state, state.upper()


def name_or_code(x):
    names = {1: "width", 2: "height", 3: "depth"}
    return [names.get(int(k), f"k{k}") for k in x]


def label_or_number(x):
    names = ["zero", "one", "two"]
    out = []
    for v in x:
        i = int(v)
        out.append(names[i] if i < 3 else f"#{i}")
    return ", ".join(out)


def codes_title(codes):
    s = "".join(chr(int(c)) for c in codes)
    return s.lower().title(), s[::-1], s[0], s[-2:], len(s)


def print_end_loop(x):
    for i, v in enumerate(x):
        print(f"{v:.1f}", end=", " if i < len(x) - 1 else "\n")
    print("sum", "=", float(x.sum()), sep="")
    return None


def banner(x):
    label = "UP" if x.sum() > 0 else "DOWN"
    line = "=" * int(abs(x.sum())) + " " + label
    return line, line.lower().center(20, "-")


def octal_and_negative_hex(x):
    return oct(int(x.sum())), hex(-int(x[0])), bin(int(x[-1]) & 7)


def name_at_int(x):
    names = ["zero", "one", "two", "three", "four", "five"]
    return names[int(x[0])].upper() + "!"


def signs_repeated(x):
    return [("+" if v > 0 else "-") * int(abs(v)) for v in x], 2 * ("a" if x[0] > 0 else "b")


def joined_compare(x):
    s = ("a" if x[0] > 0 else "b") + ("c" if x[1] > 0 else "d")
    return s == "ac", s.upper(), s


def names_by_index(x):
    names = ["zero", "one", "two", "three", "four", "five"]
    return [names[int(v)] for v in x]


def names_sorted(x):
    names = ["carol", "alice", "bob"]
    picked = sorted({names[int(i) % 3] for i in x})
    return ", ".join(n.capitalize() for n in picked)


def count_char(x):
    s = "".join("1" if v > 0 else "0" for v in x)
    return s.count("1"), s


def compare_strings(x):
    a = "alpha" if x[0] > 0 else "beta"
    b = "alpha" if x[1] > 0 else "gamma"
    return a == b, a != b


def title_words(x):
    words = ["up" if v > 0 else "down" for v in x]
    return " ".join(words).title()


def fstring_nested_choice(x):
    kind = "even" if int(x.sum()) % 2 == 0 else "odd"
    return f"sum {int(x.sum())} is {kind}"


def key_value_names(tokens):
    names = {1: "width", 2: "height", 3: "depth", 4: "color"}
    config = {}
    it = iter(tokens)
    for key in it:
        value = next(it)
        config[names.get(int(key), f"k{key}")] = int(value)
    return config


KV = (np.array([1, 5, 2, 7, 3, 9]),)
KV2 = (np.array([4, 1]),)

PROGRAMS = [
    (sign_bang, [A, B]),
    (label_then_suffix, [A, B]),
    (grade_letters, [A, B]),
    (report_lines, [A, B]),
    (padded_table, [A, B]),
    (upper_label, [A, B]),
    (in_string, [A, B]),
    (print_sep_end, [A, B]),
    (print_fstring_loop, [A, B]),
    (status_by_threshold, [A, B]),
    (join_formatted, [A, B]),
    (str_of_ints, [A, I1]),
    (percent_report, [A, B]),
    (format_method, [A, B]),
    (hex_codes, [I2, I1]),
    (bin_count, [I1, I2]),
    (bin_text, [I1, I2]),
    (chr_join, [I1, I2[:0] + (np.array([1, 2]),)]),
    (repeat_bar, [I1]),
    (accumulate_text, [A, B]),
    (accumulate_fstring, [A, B]),
    (roman, [(np.array([1, 2, 3]),), (np.array([4]),)]),
    (while_stars, [I1, (np.array([0]),)]),
    (first_match, [A, B]),
    (labelled_dict, [A, B]),
    (tuple_of_texts, [A, B]),
    (zfill_and_center, [A, I1]),
    (replace_and_strip, [A, B]),
    (print_list_of_labels, [A, B]),
    (str_of_labels, [A, B]),
    (len_of_built, [I1, (np.array([0]),)]),
    (state_machine, [A, B, (np.array([1.0] * 7),)]),
    (name_or_code, [I1, (np.array([2, 2]),)]),
    (label_or_number, [I1, (np.array([2, 7]),)]),
    (codes_title, [(np.array([72, 101, 108, 108, 111]),), (np.array([65, 66]),)]),
    (print_end_loop, [A, B]),
    (banner, [A, B]),
    (octal_and_negative_hex, [I1, I2]),
    (name_at_int, [I1, (np.array([5, 2]),)]),
    (signs_repeated, [A, B]),
    (joined_compare, [A, B]),
    (names_by_index, [I1, (np.array([5, 2]),)]),
    (names_sorted, [I1, (np.array([1, 1]),)]),
    (count_char, [A, B]),
    (compare_strings, [A, B]),
    (title_words, [A, B]),
    (fstring_nested_choice, [A, I1]),
    (key_value_names, [KV, KV2]),
]
