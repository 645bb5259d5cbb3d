import os


def check_versions(a: str, b: str | None) -> None:
    parts = a.split(".")
    if len(parts) == 2:
        parts.append("0")
    else:
        raise Exception("need more parts")


def _helper(value: str) -> None:
    pass
