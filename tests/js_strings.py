"""Characters for generated strings that the JavaScript BPE is checked on.

They come from long-established Unicode blocks, so that Node's Unicode tables,
Python's `regex` and tiktoken's Rust regex classify every one of them alike: ASCII,
Latin-1, Vietnamese (precomposed, and decomposed with combining marks), CJK, emoji
with skin tones, variation selectors and joiners, other digits and spaces, the long
s and Kelvin sign that case-insensitive contractions match, and the pieces of
special tokens.
"""

ALPHABET = (
    list("abcxyzABCXYZ0123456789 .,;:!?'\"-_()[]{}<>|/\\@#$%^&*+=~`")
    + list(" \n\t\r\u00a0\u2003\u3000")
    + list("éàüñçßøÆ¿¡«»")
    + list("ăâđêôơưàảãạấầẩẫậếềểễệớờởỡợứừửữự")
    + list("\u0300\u0301\u0303\u0309\u0323")
    + list("牛中文字東京日本語한국어")
    + ["🙃", "🦊", "👍", "🏽", "❤", "\ufe0f", "\u200d", "👨"]
    + list("٣٤५६")
    + ["\u017f", "\u212a"]
)
# Longer pieces that the patterns and the special tokens treat apart.
PIECES = (
    ALPHABET
    + ["'s", "'ll", "'RE", "'Ve", "'t", "'ſ"]
    + [
        "<|endoftext|>",
        "<|endofprompt|>",
        "<|fim_prefix|>",
        "<|",
    ]
)


def strings(max_size: int):
    """A Hypothesis strategy: strings of up to max_size pieces."""
    from hypothesis import strategies as st

    return st.lists(st.sampled_from(PIECES), max_size=max_size).map("".join)
