/// Herald's version, as printed by `herald --version`.
public let heraldVersion = "0.1.0"
