"""New people for a bigger town: name pools, names picked per copy of the 25, and texts renamed to match.

A copy of the 25 personas keeps who is related to whom: a family shares its new last name as the originals share
theirs (the Lins, the Morenos, the Moores), each original's first name maps to one new first name of the same
gender (read from the pronouns of its texts), so "Mei, John, and the son Eddy Lin" in a copied memory names the
copy's own family. No new name is one of the originals', so no text of a copy can point at an original.
"""

import random
import re
from collections.abc import Iterable, Mapping


def _names(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Invented for the derived towns; none is a first or last name of the 25 originals (checked when names are drawn).
FEMALE = _names(
    "Amara Beatriz Camille Dalia Elena Farah Greta Hana Ines Jasmin Keiko Leila Marisol Nadia Olga Priya Quinn "
    "Rosa Saanvi Tova Ursula Vera Wren Ximena Yara Zofia Alma Bianca Celeste Daniela Esme Fiona Gloria Hedda Ingrid "
    "Juno Kalinda Lucia Mirela Noor Paloma Rhea Sigrid Talia Valentina Wanda Aiko Bettina Chiara Delphine"
)
MALE = _names(
    "Anton Bashir Cyrus Darius Emil Felix Gustavo Hamid Ivan Jonas Kenji Lars Matteo Nikhil Oskar Pablo Quentin "
    "Rafael Stefan Tariq Umar Viktor Walter Xavier Yusuf Zoltan Ahmed Bruno Cedric Dmitri Enzo Florin Goran Henrik "
    "Idris Jasper Kofi Luca Marek Nils Omar Piotr Ruben Soren Teodor Vasco Wim Yannick Ansel Bogdan"
)
NEUTRAL = _names("Alex Robin Sasha Jordan Morgan Rowan Ari Emery Kai Noa Remy Sol Tenzin Yael Ellis")
LAST = _names(
    "Abara Bergstrom Castillo Dimitriou Eriksen Fontaine Gallo Haddad Ibsen Jovanovic Kowalski Lindqvist Mbeki "
    "Novak Okafor Petrova Quiroga Rahman Salazar Tanaka Ueda Varga Whitfield Xu Yilmaz Zielinski Andersen Barros "
    "Chaudhry Delgado Esposito Ferreira Guerrero Hoffmann Iwasaki Jensen Kaur Laine Mendes Nakamura Oyelaran "
    "Pereira Quintana Rasmussen Silva Takahashi Uddin Vasquez Weber Yamada Zapata Acheampong Bauer Costa Duarte "
    "Engel Farouk Greco Horvat Ivanova Jaramillo Kruger Lindberg Moretti Nyberg Ortega Papadakis Reyes Sorensen "
    "Toivonen Urquhart Valdez Wojcik Brennan Castellano Drummond Fischer Gutierrez Halvorsen Iqbal"
)

_HE = re.compile(r"\b(he|him|his|himself)\b", re.IGNORECASE)
_SHE = re.compile(r"\b(she|her|hers|herself)\b", re.IGNORECASE)


def gender_of(texts: Iterable[str]) -> str:
    """The gender, "female", "male" or "neutral", by which pronouns a persona's own texts use for it."""
    joined = " ".join(texts)
    he, she = len(_HE.findall(joined)), len(_SHE.findall(joined))
    return "female" if she > he else "male" if he > she else "neutral"


def draw_copy_names(originals: Mapping[str, str], rng: random.Random, taken: set[str]) -> dict[str, str]:
    """New full names for one copy of the originals: original name -> new name.

    Args:
        originals: Original full name -> its gender ("female", "male", "neutral").
        rng: The generator's seeded random source (consumed in a fixed order, so a seed gives the same names).
        taken: Full names already given (updated); a new name is never one of them.
    """
    old_first = {name.split()[0] for name in originals}
    old_last = {name.split()[-1] for name in originals}
    pools = {
        gender: [first for first in pool if first not in old_first]
        for gender, pool in (("female", FEMALE), ("male", MALE), ("neutral", NEUTRAL))
    }
    families = sorted({name.split()[-1] for name in originals})
    last_names = rng.sample([last for last in LAST if last not in old_last], len(families))
    new_last = dict(zip(families, last_names, strict=True))
    while True:
        firsts = {gender: rng.sample(pool, len(pool)) for gender, pool in pools.items()}
        names = {}
        for name, gender in originals.items():
            names[name] = f"{firsts[gender].pop()} {new_last[name.split()[-1]]}"
        if not taken & set(names.values()):
            taken.update(names.values())
            return names


def renamer(names: Mapping[str, str], places: Iterable[str], moved_places: Mapping[str, str] | None = None):
    """A function rewriting a text of a copy: every original's name, full or first or last, becomes the copy's.

    Place names are left alone ("Johnson Park" names a park, not Hailey Johnson; "Lin family's house" is a house on
    the map), or become their `moved_places` name where it gives one (a copy living on a copy of the map names its
    own neighbourhood's cafe: "Hobbs Cafe 2"). A misspelled full name ("Haily Johnson", "Abigail Chan") counts as
    the original's when one part is exact and the other one letter away; a lone first or last name must be exact
    ("When" is not "Chen").
    """
    words: dict[str, str] = {}
    pairs: dict[tuple[str, str], str] = {}
    for old, new in names.items():
        (old_first, *_, old_last), (new_first, *_, new_last) = old.split(), new.split()
        words[old_first], words[old_last] = new_first, new_last
        pairs[old_first, old_last] = new
    places_first = sorted(places, key=len, reverse=True)
    place_pattern = re.compile("|".join(re.escape(place) for place in places_first)) if places_first else None
    moved = dict(moved_places or {})

    def rename_pair(match: re.Match[str]) -> str:
        first, last = match.group(1), match.group(2)
        close = [
            new
            for (old_first, old_last), new in pairs.items()
            if (first == old_first and _near(last, old_last)) or (last == old_last and _near(first, old_first))
        ]
        return close[0] if len(close) == 1 else match.group(0)

    def rename(text: str) -> str:
        kept: list[str] = []

        def hide(match: re.Match[str]) -> str:
            kept.append(moved.get(match.group(0), match.group(0)))
            return f"\x00{len(kept) - 1}\x00"

        hidden = place_pattern.sub(hide, text) if place_pattern else text
        renamed = re.sub(r"\b([A-Z][a-z]+) ([A-Z][a-z]+)\b", rename_pair, hidden)
        renamed = re.sub(r"\b[A-Z][a-z]+\b", lambda match: words.get(match.group(0), match.group(0)), renamed)
        return re.sub(r"\x00(\d+)\x00", lambda match: kept[int(match.group(1))], renamed)

    return rename


def _near(word: str, name: str) -> bool:
    """The same name, or one letter apart in a name of four letters or more ("Haily", "Chan")."""
    return word == name or (len(name) >= 4 and _one_letter_apart(word, name))


def _one_letter_apart(a: str, b: str) -> bool:
    """Whether two words differ by one substitution, insertion or deletion."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
