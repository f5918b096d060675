"""Loads a IIIF Presentation 3 manifest with iiif-prezi3, whose pydantic
models validate every property as they are built, and prints what it read
as JSON; a validation error goes to standard error with exit status 1.

    python prezi3_load.py manifest.json
"""
import json
import sys

import pydantic
from iiif_prezi3 import Manifest


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        data = json.load(f)
    try:
        manifest = Manifest(**data)
    except pydantic.ValidationError as error:
        print(error, file=sys.stderr)
        sys.exit(1)
    # What the model holds, written back out: the test compares its ids and targets.
    print(manifest.json(exclude_unset=True))


if __name__ == "__main__":
    main()
