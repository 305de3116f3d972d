"""What a generated town draws from: first and last names, traits, the names of its places, a neighbourhood's size.

Generic on purpose: common names from many places, everyday traits, place names of trees, birds and landmarks. A
seeded draw from these lists gives every generated town its people and places; nothing here is about the Ville.
"""

# About how many people a neighbourhood holds (`town new --neighbourhood`): the paper's town. Here, not beside the
# layout, because the command's help reads it and must load without the map's libraries.
NEIGHBOURHOOD = 25
FIRST_NAMES = (
    "Ada", "Aiden", "Alma", "Amir", "Ana", "Ari", "Beatriz", "Ben", "Bianca", "Carl", "Chen", "Clara", "Dara", "David",
    "Dina", "Elena", "Eli", "Emeka", "Esme", "Farah", "Felix", "Gemma", "Hana", "Hugo", "Ines", "Ivan", "Jada", "Jonah",
    "Kai", "Kamala", "Kenji", "Lara", "Leo", "Lina", "Luis", "Maya", "Malik", "Mara", "Milo", "Nadia", "Nico", "Noor",
    "Olga", "Omar", "Paula", "Priya", "Quentin", "Rosa", "Ravi", "Ruth", "Sami", "Sara", "Soren", "Tara", "Theo",
    "Uma", "Victor", "Vera", "Wanda", "Wei", "Xavier", "Yara", "Yusuf", "Zoe", "Zane", "Iris", "Oscar", "Nell",
    "Tobias", "Greta", "Diego", "Lucia", "Hamid", "Ingrid", "Joel", "Keiko", "Marta", "Pablo", "Selma", "Tomas",
)  # fmt: skip
LAST_NAMES = (
    "Abara", "Alvarez", "Andersen", "Baker", "Banerjee", "Berg", "Bishop", "Boateng", "Brennan", "Castillo", "Chang",
    "Costa", "Dahl", "Delgado", "Dimitrov", "Dubois", "Eriksen", "Evans", "Farouk", "Fischer", "Fontaine", "Garcia",
    "Grant", "Haddad", "Hale", "Hayashi", "Hughes", "Ibrahim", "Ivanova", "Jensen", "Kader", "Kaur", "Keller",
    "Kowalski", "Larsen", "Lee", "Lindqvist", "Mbeki", "Mendes", "Moreau", "Murphy", "Nakamura", "Novak", "Nowak",
    "Okafor", "Olsen", "Ortega", "Osei", "Park", "Patel", "Petrov", "Quinn", "Ramos", "Reyes", "Rossi", "Sato",
    "Schmidt", "Silva", "Singh", "Sorensen", "Suzuki", "Tanaka", "Torres", "Ueda", "Vargas", "Vasquez", "Weber",
    "Wright", "Yilmaz", "Young", "Zhang", "Ahmed", "Bauer", "Conti", "Demir", "Fujita", "Gallo", "Holm", "Iyer",
    "Janssen", "Kim", "Lund", "Marino", "Nilsen", "Ozturk", "Pham", "Ricci", "Strand", "Tran", "Varga", "Wolff",
)  # fmt: skip
TRAITS = (
    "kind", "curious", "patient", "cheerful", "practical", "shy", "outgoing", "thoughtful", "stubborn", "generous",
    "witty", "calm", "energetic", "careful", "honest", "ambitious", "gentle", "talkative", "quiet", "warm", "organized",
    "creative", "dependable", "playful", "serious", "easygoing", "observant", "helpful", "proud", "optimistic",
)  # fmt: skip
PLACE_WORDS = (
    "Maple", "Willow", "Juniper", "Cedar", "Birch", "Alder", "Linden", "Rowan", "Hazel", "Aspen", "Elm", "Laurel",
    "Heron", "Sparrow", "Wren", "Finch", "Lark", "Robin", "Kestrel", "Plover", "Harbor", "Lantern", "Copper", "Meadow",
    "Brook", "Hill", "Stone", "Bridge", "Mill", "Orchard", "River", "Summit", "Beacon", "Clover", "Pine", "Fern",
)  # fmt: skip
