/** Files of the seeded octocat/weather-cli repository (Python). */
export const WEATHER_CLI_FILES: Record<string, string> = {
  "README.md": `# weather-cli

Print today's weather summary for a city from the terminal, using the free
[Open-Meteo](https://open-meteo.com) API (no key needed).

## Install

    pip install -e .

## Usage

    weather today --city Berlin
    weather today --city "San Francisco" --units imperial

Output:

    Berlin: 4.1°C to 11.8°C (mean 7.9°C), windiest at 15:00 from WSW

## Development

    python -m unittest discover -s tests
`,
  "pyproject.toml": `[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "weather-cli"
version = "0.4.1"
description = "Today's weather summary in your terminal"
requires-python = ">=3.10"
readme = "README.md"
license = { text = "MIT" }

[project.scripts]
weather = "weather.cli:main"

[tool.setuptools]
packages = ["weather"]
`,
  ".gitignore": "__pycache__/\n*.egg-info/\n.venv/\n",
  ".github/workflows/ci.yml": `name: CI

on:
  push:
    branches: [main]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: ["3.10", "3.11", "3.12"]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: \${{ matrix.python-version }}
      - run: pip install -e .
      - run: python -m unittest discover -s tests -v
`,
  "weather/__init__.py": `"""Today's weather summary in your terminal."""

__version__ = "0.4.1"
`,
  "weather/units.py": `"""Temperature and speed conversions."""

ABSOLUTE_ZERO_C = -273.15


def celsius_to_fahrenheit(celsius: float) -> float:
    return celsius * 9 / 5 + 32


def fahrenheit_to_celsius(fahrenheit: float) -> float:
    return (fahrenheit - 32) * 5 / 9


def kelvin_to_celsius(kelvin: float) -> float:
    """Some stations report Kelvin; everything else in the app is Celsius."""
    if kelvin < 0:
        raise ValueError("temperature below absolute zero")
    return kelvin - ABSOLUTE_ZERO_C


def kmh_to_mph(kmh: float) -> float:
    return kmh * 0.621371
`,
  "weather/compass.py": `"""Wind direction helpers."""

POINTS = [
    "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
    "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
]


def compass_point(degrees: float) -> str:
    """Map a wind direction in degrees to one of the 16 compass points."""
    index = int((degrees % 360) / 22.5 + 0.5)
    return POINTS[index]
`,
  "weather/forecast.py": `"""Summaries of hourly readings."""

from dataclasses import dataclass

from .units import kelvin_to_celsius


@dataclass(frozen=True)
class Reading:
    hour: int
    temperature: float
    wind_kmh: float
    wind_deg: float
    unit: str = "C"

    @property
    def celsius(self) -> float:
        return kelvin_to_celsius(self.temperature) if self.unit == "K" else self.temperature


def daily_summary(readings: list[Reading]) -> dict:
    """Min, max and mean temperature in Celsius, plus the windiest reading."""
    temps = [r.celsius for r in readings]
    windiest = max(readings, key=lambda r: r.wind_kmh)
    return {
        "min": min(temps),
        "max": max(temps),
        "mean": round(sum(temps) / len(temps), 1),
        "windiest_hour": windiest.hour,
        "windiest_deg": windiest.wind_deg,
    }
`,
  "weather/client.py": `"""Fetches hourly readings from Open-Meteo."""

import json
import urllib.parse
import urllib.request

from .forecast import Reading

GEOCODE_URL = "https://geocoding-api.open-meteo.com/v1/search"
FORECAST_URL = "https://api.open-meteo.com/v1/forecast"


def _get(url: str, params: dict) -> dict:
    with urllib.request.urlopen(f"{url}?{urllib.parse.urlencode(params)}", timeout=10) as res:
        return json.load(res)


def locate(city: str) -> tuple[float, float]:
    results = _get(GEOCODE_URL, {"name": city, "count": 1}).get("results") or []
    if not results:
        raise LookupError(f"unknown city: {city}")
    return results[0]["latitude"], results[0]["longitude"]


def hourly_readings(city: str) -> list[Reading]:
    lat, lon = locate(city)
    data = _get(FORECAST_URL, {
        "latitude": lat,
        "longitude": lon,
        "hourly": "temperature_2m,wind_speed_10m,wind_direction_10m",
        "forecast_days": 1,
    })
    hourly = data.get("hourly", {})
    return [
        Reading(hour=i, temperature=t, wind_kmh=w, wind_deg=d)
        for i, (t, w, d) in enumerate(zip(
            hourly.get("temperature_2m", []),
            hourly.get("wind_speed_10m", []),
            hourly.get("wind_direction_10m", []),
        ))
    ]
`,
  "weather/cli.py": `"""Command-line entry point: \`weather today --city NAME\`."""

import argparse
import sys

from .client import hourly_readings
from .compass import compass_point
from .forecast import daily_summary
from .units import celsius_to_fahrenheit


def format_summary(city: str, summary: dict, units: str = "metric") -> str:
    if summary.get("mean") is None:
        return f"{city}: no hourly data available"
    convert = celsius_to_fahrenheit if units == "imperial" else (lambda c: c)
    unit = "°F" if units == "imperial" else "°C"
    low, high, mean = (round(convert(summary[k]), 1) for k in ("min", "max", "mean"))
    direction = compass_point(summary["windiest_deg"])
    hour = summary["windiest_hour"]
    return f"{city}: {low}{unit} to {high}{unit} (mean {mean}{unit}), windiest at {hour:02d}:00 from {direction}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="weather")
    sub = parser.add_subparsers(dest="command", required=True)
    today = sub.add_parser("today", help="summary for today")
    today.add_argument("--city", required=True)
    today.add_argument("--units", choices=["metric", "imperial"], default="metric")
    args = parser.parse_args(argv)
    try:
        summary = daily_summary(hourly_readings(args.city))
    except LookupError as error:
        print(error, file=sys.stderr)
        return 1
    print(format_summary(args.city, summary, args.units))
    return 0


if __name__ == "__main__":
    sys.exit(main())
`,
  "tests/__init__.py": "",
  "tests/test_units.py": `import unittest

from weather.units import celsius_to_fahrenheit, fahrenheit_to_celsius, kmh_to_mph


class UnitsTest(unittest.TestCase):
    def test_celsius_fahrenheit_round_trip(self):
        self.assertAlmostEqual(celsius_to_fahrenheit(100), 212)
        self.assertAlmostEqual(fahrenheit_to_celsius(32), 0)
        self.assertAlmostEqual(fahrenheit_to_celsius(celsius_to_fahrenheit(21.5)), 21.5)

    def test_kmh_to_mph(self):
        self.assertAlmostEqual(kmh_to_mph(100), 62.1371)


if __name__ == "__main__":
    unittest.main()
`,
  "tests/test_compass.py": `import unittest

from weather.compass import compass_point


class CompassTest(unittest.TestCase):
    def test_cardinal_points(self):
        self.assertEqual(compass_point(0), "N")
        self.assertEqual(compass_point(90), "E")
        self.assertEqual(compass_point(180), "S")
        self.assertEqual(compass_point(270), "W")

    def test_intermediate_points(self):
        self.assertEqual(compass_point(247.5), "WSW")
        self.assertEqual(compass_point(30), "NNE")


if __name__ == "__main__":
    unittest.main()
`,
  "tests/test_forecast.py": `import unittest

from weather.cli import format_summary
from weather.forecast import Reading, daily_summary


class ForecastTest(unittest.TestCase):
    def test_summary(self):
        readings = [
            Reading(hour=6, temperature=4.0, wind_kmh=10, wind_deg=200),
            Reading(hour=15, temperature=12.0, wind_kmh=25, wind_deg=250),
        ]
        summary = daily_summary(readings)
        self.assertEqual(summary["min"], 4.0)
        self.assertEqual(summary["max"], 12.0)
        self.assertEqual(summary["mean"], 8.0)
        self.assertEqual(summary["windiest_hour"], 15)

    def test_format(self):
        summary = {"min": 4.0, "max": 12.0, "mean": 8.0, "windiest_hour": 15, "windiest_deg": 250}
        self.assertEqual(
            format_summary("Berlin", summary),
            "Berlin: 4.0°C to 12.0°C (mean 8.0°C), windiest at 15:00 from WSW",
        )


if __name__ == "__main__":
    unittest.main()
`,
};
