"""bagit-profile's verdict on a bag: python bagit_profile_check.py PROFILE.json BAG_FOLDER [SERIALIZED].

Prints {"ok": bool, "errors": [...]} as JSON. SERIALIZED is the archive the
folder was unpacked from, for the Serialization and Accept-Serialization
rules (bagit-profile reads the bag itself only unpacked); without it the
folder is the bag as delivered.
"""
import json
import logging
import sys

import bagit
import bagit_profile

logging.disable(logging.CRITICAL)
profile_path, folder = sys.argv[1], sys.argv[2]
delivered = sys.argv[3] if len(sys.argv) > 3 else folder
with open(profile_path, encoding="utf-8") as f:
    text = f.read()
identifier = json.loads(text)["BagIt-Profile-Info"]["BagIt-Profile-Identifier"]
profile = bagit_profile.Profile(identifier, profile=text)
errors = []
try:
    profile.validate_serialization(delivered)
except bagit_profile.ProfileValidationError as error:
    errors.append(str(error))
if not profile.validate(bagit.Bag(folder)):
    errors += [str(error) for error in profile.report.errors]
print(json.dumps({"ok": not errors, "errors": errors}))
