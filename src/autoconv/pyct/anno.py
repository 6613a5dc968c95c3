"""Annotations that analysis passes attach to AST nodes and converters read."""

_KEY = "_autoconv_anno"


def get(node, key, default=None):
    return getattr(node, _KEY, {}).get(key, default)


def set(node, key, value):  # noqa: A001 - the verb is the clearest name here
    annotations = getattr(node, _KEY, None)
    if annotations is None:
        annotations = {}
        setattr(node, _KEY, annotations)
    annotations[key] = value
