"""Programs that split data into runs and groups (issue 24, groups9): a list reset under a
staged `if` and appended to every iteration, lists of lists grown with `groups.append([])` and
`groups[-1].append(x)`, runs collected when they end, buckets by a computed key. Each is run
with its inputs eagerly and as a graph by tests/graph/test_groups9.py."""

import numpy as np

PROGRAMS = {}


def prog(*inputs):
    def add(fn):
        PROGRAMS[fn.__name__] = (fn, inputs)
        return fn

    return add


A = np.array([3, 1, 0, 4, 1, 5, 0, 0, 9, 2])
B = np.array([1, 2, 3, 2, 5, 6, 7, 1])
C = np.array([0, 0, 0])
E = np.array([], dtype=np.int64)
TEXT = np.array([104, 105, 32, 116, 104, 101, 114, 101, 46, 32, 111, 107, 46])
LAB = np.array([1, 1, 2, 2, 2, 1, 3, 3])
F = np.array([0.5, 2.5, 3.0, 0.1, 4.0, 4.5, 0.2])


# -- a list reset under a staged `if`, appended to every iteration --------------------------
@prog((A,), (B,), (E,))
def reset_then_append(xs):
    cur = []
    for t in xs:
        if t > 2:
            cur = []
        cur.append(int(t))
    return cur


@prog((A,), (C,), (E,))
def split_on_zeros(xs):
    runs = []
    cur = []
    for v in xs:
        if v == 0:
            if cur:
                runs.append(cur)
            cur = []
        else:
            cur.append(int(v))
    if cur:
        runs.append(cur)
    return runs


@prog((A,), (C,))
def split_on_zeros_lengths(xs):
    runs = []
    cur = []
    for v in xs:
        if v == 0:
            runs.append(cur)
            cur = []
        else:
            cur.append(int(v))
    runs.append(cur)
    return [len(r) for r in runs]


@prog((B,), (A,), (E,))
def increasing_runs(xs):
    runs = []
    cur = []
    prev = None
    for v in xs:
        if prev is not None and v <= prev:
            runs.append(cur)
            cur = []
        cur.append(int(v))
        prev = v
    if cur:
        runs.append(cur)
    return runs


@prog((B,), (A,))
def longest_increasing_run(xs):
    best = []
    cur = []
    for v in xs:
        if cur and v <= cur[-1]:
            cur = []
        cur.append(int(v))
        if len(cur) > len(best):
            best = list(cur)
    return best


@prog((TEXT,))
def sentence_split(codes):
    sentences = []
    cur = []
    for c in codes:
        cur.append(int(c))
        if c == 46:
            sentences.append(cur)
            cur = []
    return [len(s) for s in sentences]


@prog((TEXT,))
def word_lengths_by_reset(codes):
    lengths = []
    cur = []
    for c in codes:
        if c == 32 or c == 46:
            if len(cur) > 0:
                lengths.append(len(cur))
            cur = []
        else:
            cur.append(int(c))
    return lengths


@prog((LAB,), (E,))
def group_equal_labels(labels):
    groups = []
    for x in labels:
        if groups and groups[-1][0] == x:
            groups[-1].append(int(x))
        else:
            groups.append([int(x)])
    return groups


@prog((LAB,))
def group_equal_labels_counts(labels):
    groups = []
    for x in labels:
        if not groups or groups[-1][-1] != x:
            groups.append([])
        groups[-1].append(int(x))
    return [(g[0], len(g)) for g in groups]


@prog((F,), (np.array([0.1, 0.2]),))
def segments_above_threshold(x):
    segs = []
    cur = []
    for v in x:
        if v > 1.0:
            cur.append(float(v))
        elif cur:
            segs.append(cur)
            cur = []
    if cur:
        segs.append(cur)
    return segs


@prog((F,))
def segment_sums_above_threshold(x):
    segs = []
    cur = []
    for v in x:
        if v > 1.0:
            cur.append(v)
        elif cur:
            segs.append(sum(cur))
            cur = []
    if cur:
        segs.append(sum(cur))
    return segs


@prog((A,), (B,))
def chunk_by_running_sum(xs):
    chunks = []
    cur = []
    total = 0
    for v in xs:
        if total + v > 6 and cur:
            chunks.append(cur)
            cur = []
            total = 0
        cur.append(int(v))
        total += int(v)
    if cur:
        chunks.append(cur)
    return chunks


@prog((np.array([5, 0, 3, 4, 0, 0, 7]),), (E,))
def csv_fields(codes):
    fields = [[]]
    for c in codes:
        if c == 0:
            fields.append([])
        else:
            fields[-1].append(int(c))
    return [sum(f) for f in fields]


@prog((np.array([5, 0, 3, 4, 0, 0, 7]),))
def csv_fields_raw(codes):
    fields = [[]]
    for c in codes:
        if c == 0:
            fields.append([])
        else:
            fields[-1].append(int(c))
    return fields


@prog((np.array([49, 50, 44, 51, 44, 44, 52, 53, 54]),))
def csv_numbers(codes):
    fields = [[]]
    for c in codes:
        if c == 44:
            fields.append([])
        else:
            fields[-1].append(int(c) - 48)
    out = []
    for f in fields:
        n = 0
        for d in f:
            n = n * 10 + d
        out.append(n)
    return out


@prog((A,), (E,))
def bucket_by_mod(xs):
    buckets = [[], [], []]
    for v in xs:
        buckets[int(v) % 3].append(int(v))
    return buckets


@prog((F,))
def bucket_by_range(x):
    buckets = [[] for _ in range(4)]
    for v in x:
        k = min(int(v), 3)
        buckets[k].append(float(v))
    return [len(b) for b in buckets], [sum(b) for b in buckets]


@prog((A,))
def bucket_by_sign_fixed(xs):
    groups = [[], []]
    for v in xs:
        if v % 2 == 0:
            groups[0].append(int(v))
        else:
            groups[1].append(int(v))
    return groups


@prog((A,), (E,))
def groups_append_empty(xs):
    groups = []
    for i, x in enumerate(xs):
        if i % 3 == 0:
            groups.append([])
        groups[-1].append(int(x))
    return groups


@prog((A,))
def groups_max_each(xs):
    groups = []
    for i, x in enumerate(xs):
        if i % 4 == 0:
            groups.append([])
        groups[-1].append(int(x))
    return [max(g) for g in groups]


@prog((A,), (C,))
def runs_of_equal(xs):
    out = []
    run = [int(xs[0])]
    for v in xs[1:]:
        if v == run[-1]:
            run.append(int(v))
        else:
            out.append(run)
            run = [int(v)]
    out.append(run)
    return out


@prog(
    (A,),
)
def run_lengths_encoding(xs):
    out = []
    run = []
    for v in xs:
        if run and v != run[0]:
            out.append((run[0], len(run)))
            run = []
        run.append(int(v))
    if run:
        out.append((run[0], len(run)))
    return out


@prog((np.array([48, 49, 43, 50, 51, 45, 55]),))
def tokenize_digits_ops(codes):
    tokens = []
    num = None
    for c in codes:
        if 48 <= c <= 57:
            num = (num or 0) * 10 + int(c - 48)
        else:
            if num is not None:
                tokens.append(num)
                num = None
            tokens.append(chr(c))
    if num is not None:
        tokens.append(num)
    return tokens


@prog((A,))
def mixed_shapes_appended(xs):
    out = []
    for v in xs:
        if v > 3:
            out.append(np.zeros(2))
        else:
            out.append(np.zeros(3))
    return len(out)


def first_is_three(lst):
    return lst[0] == 3


@prog((A,), (B,))
def helper_compares_grown(xs):
    lst = []
    for v in xs:
        if v > 0:
            lst.append(int(v))
    return first_is_three(lst)


@prog((A,), (B,))
def first_item_equal(xs):
    lst = []
    for v in xs:
        if v > 0:
            lst.append(int(v))
    return lst[0] == 3, lst[-1] != 2


@prog((A,))
def cur_max_per_run(xs):
    maxes = []
    cur = []
    for v in xs:
        if v == 0:
            if cur:
                maxes.append(max(cur))
            cur = []
        else:
            cur.append(int(v))
    if cur:
        maxes.append(max(cur))
    return maxes


@prog((A,))
def cur_len_only(xs):
    lens = []
    cur = []
    for v in xs:
        if v == 0:
            lens.append(len(cur))
            cur = []
        else:
            cur.append(v)
    lens.append(len(cur))
    return lens


@prog((A,))
def reset_list_array_result(xs):
    cur = []
    for v in xs:
        if v == 0:
            cur = []
        else:
            cur.append(float(v))
    return np.array(cur)


@prog((A,))
def paragraphs_of_words(xs):
    paras = [[[]]]
    for v in xs:
        if v == 0:
            paras[-1].append([])
        else:
            paras[-1][-1].append(int(v))
    return paras


@prog((A,))
def batches_of_three(xs):
    batches = []
    batch = []
    for v in xs:
        batch.append(int(v))
        if len(batch) == 3:
            batches.append(batch)
            batch = []
    if batch:
        batches.append(batch)
    return batches


@prog((A,))
def flush_on_sum_means(xs):
    means = []
    cur = []
    for v in xs:
        cur.append(float(v))
        if sum(cur) >= 5:
            means.append(sum(cur) / len(cur))
            cur = []
    return means


@prog((np.array([[1, 0], [1, 1], [2, 0], [2, 2], [1, 5]]),))
def group_rows_by_key(rows):
    keys = []
    groups = []
    for r in rows:
        k = int(r[0])
        if k in keys:
            groups[keys.index(k)].append(int(r[1]))
        else:
            keys.append(k)
            groups.append([int(r[1])])
    return keys, groups


@prog((A,))
def count_runs_with_reset(xs):
    n = 0
    cur = []
    for v in xs:
        if v == 0:
            if len(cur) >= 2:
                n += 1
            cur = []
        else:
            cur.append(v)
    return n


@prog((A,))
def windows_reset_sum(xs):
    out = []
    cur = []
    for v in xs:
        cur.append(int(v))
        if v == 0:
            out.append(sum(cur))
            cur = []
    out.append(sum(cur))
    return out
