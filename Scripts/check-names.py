#!/usr/bin/env python3
"""Checks that what the prose around the core names still exists in Sources.

Three texts name the code without a compiler to check them, and went stale when the code moved:

- the Promela model of the delivery protocol (Sources/EventBus/Output/DeliveryLatch.pml), whose comments map each of
  its names to a type, member or file of the Swift code;
- CONTRIBUTING.md's walk through one delivery ("Following one delivery through the core"), which names every file and
  type a `.main` delivery crosses;
- the doc comments of the EventBus module's internal code, whose ``Type/member(label:)`` links DocC does not check
  (it builds the public API's documentation only).

A name passes when Sources declares it: a file of that name, a type (class, struct, enum, protocol, actor, typealias or
extension), or a member (func, var, let, case, init) with the same argument labels where the text gives them. A member
written `Type.member` must be declared in a file that declares or extends `Type`. Names the model defines for itself
(its variables, inline steps and processes) pass in the model.

    Scripts/check-names.py        prints each name that names nothing, then a count; exits 1 if there is one
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
MODEL = SOURCES / "EventBus" / "Output" / "DeliveryLatch.pml"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
WALK_HEADING = "## Following one delivery through the core"

# Words of Swift, C and spin that the texts use as code but that Sources does not declare.
BUILTIN = {"nil", "deinit", "init", "self", "true", "false", "pthread_t", "Int32", "UInt", "Int", "Bool", "Void"}


def swift_files():
    return sorted(p for p in SOURCES.rglob("*.swift"))


def top_level_split(text):
    """Splits a parameter list at its top-level commas."""
    parts, depth, current = [], 0, ""
    for character in text:
        if character in "([<{":
            depth += 1
        elif character in ")]>}":
            depth -= 1
        if character == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += character
    if current.strip():
        parts.append(current)
    return parts


def labels_of(parameters):
    """The argument labels of a declaration's parameter list, `_` for an unlabelled one."""
    labels = []
    for parameter in top_level_split(parameters):
        head = parameter.split(":", 1)[0].split()
        head = [word for word in head if not word.startswith("@") and word not in ("inout", "borrowing", "consuming")]
        if head:
            labels.append(head[0].strip("`"))
    return labels


class Declarations:
    def __init__(self):
        self.files = {}  # file name -> paths
        self.types = {}  # type name -> paths that declare or extend it
        self.members = {}  # member name -> list of (path, labels or None)
        declaration = re.compile(
            r"\b(class|struct|enum|protocol|actor|typealias|extension)\s+([A-Za-z_][\w.]*)"
            r"|\b(func|init|subscript)\s*`?([A-Za-z_]\w*|)`?\s*(<[^>]*>)?\s*\("
            r"|\b(var|let|case)\s+`?([A-Za-z_]\w*)`?"
        )
        for path in swift_files():
            self.files.setdefault(path.name, []).append(path)
            text = path.read_text()
            for match in declaration.finditer(text):
                if match.group(2):
                    for name in (match.group(2), match.group(2).split(".")[-1]):
                        self.types.setdefault(name, set()).add(path)
                elif match.group(3):
                    name = match.group(4) or match.group(3)
                    parameters = self.parameters_from(text, match.end() - 1)
                    self.members.setdefault(name, []).append((path, labels_of(parameters)))
                else:
                    self.members.setdefault(match.group(7), []).append((path, None))
            # Enum cases in a list: `case a, b, c`.
            for match in re.finditer(r"\bcase\s+([a-z]\w*(?:\s*,\s*[a-z]\w*)+)\s*$", text, re.MULTILINE):
                for name in match.group(1).split(","):
                    self.members.setdefault(name.strip(), []).append((path, None))

    @staticmethod
    def parameters_from(text, open_index):
        depth = 0
        for index in range(open_index, len(text)):
            if text[index] == "(":
                depth += 1
            elif text[index] == ")":
                depth -= 1
                if depth == 0:
                    return text[open_index + 1 : index]
        return ""

    def has_member(self, name, labels, in_type=None):
        candidates = self.members.get(name, [])
        if in_type is not None:
            paths = self.types.get(in_type, set())
            candidates = [candidate for candidate in candidates if candidate[0] in paths]
        if labels is None:
            return bool(candidates)
        return any(found is not None and found == labels for _, found in candidates)


def parse_reference(text):
    """`Type.member(a:b:)`, `Type/member(_:)` or `member` -> (components, labels or None)."""
    labels = None
    call = re.search(r"\(([^()]*)\)$", text)
    if call:
        inside = call.group(1)
        if inside == "" or re.fullmatch(r"(\w+:)+", inside):
            labels = [label for label in inside.split(":") if label]
        text = text[: call.start()]
    components = [component for component in re.split(r"[./]", text) if component]
    return components, labels


def check_reference(declarations, text, allowed=frozenset()):
    """Returns why `text` names nothing, or None when it names something."""
    components, labels = parse_reference(text)
    if not components or not all(re.fullmatch(r"[A-Za-z_]\w*", c) for c in components):
        return None  # an expression or a value, not a name
    if len(components) == 1 and (components[0] in allowed or components[0] in BUILTIN):
        return None
    owner = None
    for index, component in enumerate(components):
        last = index == len(components) - 1
        if component[0].isupper() and not (last and labels is not None):
            if component not in declarations.types and component not in BUILTIN:
                return f"no type `{component}`"
            owner = component
            continue
        if index == 0 and component in allowed:
            return None
        if not declarations.has_member(component, labels if last else None, owner):
            place = f" of `{owner}`" if owner else ""
            written = f"{component}({''.join(l + ':' for l in labels)})" if last and labels is not None else component
            return f"no member `{written}`{place}"
        return None
    return None


def check_files(declarations, line):
    problems = []
    for name in re.findall(r"([\w/+.]+\.swift)\b", line):
        path_parts = name.split("/")
        matches = declarations.files.get(path_parts[-1], [])
        if not matches:
            problems.append(f"no file {name}")
        elif len(path_parts) > 1 and not any(str(p).endswith("/" + name) for p in matches):
            problems.append(f"no file {name} (there is {matches[0].relative_to(ROOT)})")
    return problems


def model_names():
    """Names the model declares for itself, in its code (outside its comments)."""
    code = re.sub(r"/\*.*?\*/", "", MODEL.read_text(), flags=re.DOTALL)
    return frozenset(re.findall(r"[A-Za-z_]\w*", code))


def check_model(declarations):
    allowed = model_names()
    problems = []
    for number, line in enumerate(MODEL.read_text().splitlines(), 1):
        for problem in check_files(declarations, line):
            problems.append((MODEL, number, problem))
        for span in re.findall(r"`([^`]+)`", line):
            why = check_reference(declarations, span, allowed)
            if why:
                problems.append((MODEL, number, f"`{span}`: {why}"))
    return problems


def check_walk(declarations):
    text = CONTRIBUTING.read_text()
    if WALK_HEADING not in text:
        return [(CONTRIBUTING, 0, f"no section '{WALK_HEADING}'")]
    start = text.index(WALK_HEADING)
    first_line = text[:start].count("\n") + 1
    end = text.find("\n## ", start + len(WALK_HEADING))
    section = text[start:] if end < 0 else text[start:end]
    problems = []
    for offset, line in enumerate(section.splitlines()):
        number = first_line + offset
        for problem in check_files(declarations, line):
            problems.append((CONTRIBUTING, number, problem))
        for span in re.findall(r"`([^`]+)`", line):
            if re.search(r"\.(swift|pml|md|h|sh)$", span) or "/" in span and not re.search(r"\w/\w+\(", span):
                continue  # a file or a folder, checked above
            why = check_reference(declarations, span)
            if why:
                problems.append((CONTRIBUTING, number, f"`{span}`: {why}"))
    return problems


def check_doc_links(declarations):
    problems = []
    for path in sorted((SOURCES / "EventBus").rglob("*.swift")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            comment = line.strip()
            if not comment.startswith("///") and not comment.startswith("//"):
                continue
            for link in re.findall(r"``([^`]+)``", comment):
                why = check_reference(declarations, link)
                if why:
                    problems.append((path, number, f"``{link}``: {why}"))
    return problems


def main():
    declarations = Declarations()
    problems = check_model(declarations) + check_walk(declarations) + check_doc_links(declarations)
    for path, number, problem in problems:
        print(f"{path.relative_to(ROOT)}:{number}: {problem}")
    print(f"names: {len(problems)} naming nothing in Sources")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
