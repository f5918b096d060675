"""Runs the IIIF Image API validator (iiif-validator-ng) as its command
line does, and prints every result as one JSON object, so a test can count
them and name the failures:

    python iiif_validate.py BASE_URL IDENTIFIER
    {"level": "LEVEL_0", "tests": 24, "passed": 24, "results": 61,
     "failed": [{"test": ..., "details": ..., "url": ...}]}

A test passes when every result it gives passes (info.json's test gives
one result per field it checks).

The command line prints a progress bar and always exits 0.
"""
import json
import sys

from iiif_validator.tests.test import IIIFVersion, TargetServer, ValidationFailure
from iiif_validator.validate import run_tests


def main():
    base_url, identifier = sys.argv[1], sys.argv[2]
    server = TargetServer(base_url, validation_id=identifier, version=IIIFVersion.V3)
    features = server.feature_set()
    tests, passed, results, failed = 0, 0, 0, []
    for test, result in run_tests(server, max_threads=2):
        tests += 1
        ok = True
        for one in result if isinstance(result, list) else [result]:
            results += 1
            if isinstance(one, ValidationFailure):
                ok = False
                failed.append({"test": f"{test.name} [{test.__module__.split('.')[-1]}]", "details": one.details,
                               "expected": one.expected, "received": one.received, "url": one.url})
        passed += ok
    print(json.dumps({"level": features.compliance_level.name, "tests": tests, "passed": passed, "results": results,
                      "failed": failed}))


if __name__ == "__main__":
    main()
