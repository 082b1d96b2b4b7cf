"""Settings: defaults, pbem.toml, PBEM_* variables, passwords never on the command line."""

import pytest

from pbem.config import ConfigError, load


def test_defaults_without_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = load(env={})
    assert config.path("db") == tmp_path / "pbem.db"
    assert config["mail"]["rate_per_hour"] == 30
    assert config.source is None


def test_file_then_environment(tmp_path):
    (tmp_path / "pbem.toml").write_text('db = "games.db"\n[smtp]\nhost = "mail.example"\nport = 587\n')
    config = load(str(tmp_path / "pbem.toml"),
                  env={"PBEM_SMTP_PORT": "2525", "PBEM_ADDRESS": "club@example.org"})
    assert config.path("db") == tmp_path / "games.db"
    assert config["smtp"]["host"] == "mail.example"
    assert config["smtp"]["port"] == 2525
    assert config["address"] == "club@example.org"


def test_unknown_and_malformed_settings_are_named(tmp_path):
    (tmp_path / "a.toml").write_text('colour = "red"\n')
    with pytest.raises(ConfigError, match="unknown setting 'colour'"):
        load(str(tmp_path / "a.toml"), env={})
    (tmp_path / "b.toml").write_text('[smtp]\nport = "many"\n')
    with pytest.raises(ConfigError, match="'many' is not a whole number"):
        load(str(tmp_path / "b.toml"), env={})
    with pytest.raises(ConfigError, match="no settings file"):
        load(str(tmp_path / "missing.toml"), env={})


def test_password_from_a_variable_or_a_command(tmp_path):
    (tmp_path / "p.toml").write_text('[smtp]\npassword_env = "CLUB_PW"\n[imap]\n'
                                     'password_command = "echo from-a-command"\n')
    config = load(str(tmp_path / "p.toml"), env={})
    assert config.secret("imap") == "from-a-command"
    with pytest.raises(ConfigError, match="CLUB_PW is not set"):
        config.secret("smtp")
