import type { SeededFix, SeedRepo } from "./seed.types";
import { WEATHER_CLI_FILES } from "./weather-cli.files";

export const WEATHER_CLI: SeedRepo = {
  owner: "octocat",
  name: "weather-cli",
  description: "Today's weather summary in your terminal, from Open-Meteo",
  language: "Python",
  topics: ["python", "cli", "weather"],
  private: false,
  defaultBranch: "main",
  createdAt: "2023-06-11T19:20:05Z",
  commits: [{ message: "Initial import of weather-cli", date: "2023-06-11T19:31:40Z", files: WEATHER_CLI_FILES }],
  issues: [
    {
      title: "Add --units imperial",
      body: "I'd like to see Fahrenheit. A `--units imperial` flag on `weather today` would be great.",
      labels: ["enhancement"],
      user: "hubot",
      createdAt: "2023-07-01T10:00:00Z",
      state: "closed",
      stateReason: "completed",
      closedAt: "2023-07-03T18:12:09Z",
      comments: 1,
    },
    {
      title: "Kelvin readings are converted to absurd Celsius values",
      body: "Stations that report in Kelvin show temperatures like 566.3°C. A reading of 293.15 K should be 20 °C.\n\n```python\n>>> from weather.units import kelvin_to_celsius\n>>> kelvin_to_celsius(293.15)\n566.3\n```\n\nThe conversion is `kelvin_to_celsius()` in `weather/units.py`.",
      labels: ["bug"],
      user: "hubot",
      createdAt: "2024-01-16T07:45:12Z",
      state: "open",
      comments: 2,
    },
    {
      title: "IndexError for wind directions just below north (e.g. 350°)",
      body: 'When the windiest reading has a direction between 348.75° and 360°, `weather today` crashes:\n\n```\n  File "weather/compass.py", line 12, in compass_point\n    return POINTS[index]\nIndexError: list index out of range\n```\n\nThose directions should map to `N`. See `compass_point()` in `weather/compass.py`.',
      labels: ["bug", "good first issue"],
      user: "octocat",
      createdAt: "2024-02-03T21:18:33Z",
      state: "open",
    },
    {
      title: "`weather today` crashes when the forecast has no hourly readings",
      body: "For some remote locations Open-Meteo returns an empty `hourly` block, and the CLI dies with `ValueError: max() arg is an empty sequence` from `daily_summary()` in `weather/forecast.py`.\n\nExpected: print `<city>: no hourly data available` (the formatter already supports a summary whose values are `None`).",
      labels: ["bug"],
      user: "hubot",
      createdAt: "2024-02-27T12:05:50Z",
      state: "open",
      comments: 1,
    },
    {
      title: "Document how to run the tests",
      body: "The README does not say how to run the test suite.",
      labels: ["documentation"],
      user: "hubot",
      createdAt: "2023-08-20T09:09:09Z",
      state: "closed",
      stateReason: "completed",
      closedAt: "2023-08-21T11:00:00Z",
    },
  ],
};

export const WEATHER_CLI_FIXES: SeededFix[] = [
  {
    repo: "octocat/weather-cli",
    issueNumber: 2,
    title: "Subtract 273.15 when converting Kelvin to Celsius",
    analysis:
      "ABSOLUTE_ZERO_C is -273.15, and kelvin_to_celsius() subtracts it, which adds 273.15 instead of subtracting it: 293.15 K becomes 566.3.",
    proposedSolution: "Add ABSOLUTE_ZERO_C to the Kelvin value (C = K - 273.15) and cover the conversion with a test.",
    files: [
      {
        filename: "weather/units.py",
        action: "modify",
        edits: [{ search: "    return kelvin - ABSOLUTE_ZERO_C\n", replace: "    return kelvin + ABSOLUTE_ZERO_C\n" }],
      },
      {
        filename: "tests/test_units.py",
        action: "modify",
        edits: [
          {
            search: "from weather.units import celsius_to_fahrenheit, fahrenheit_to_celsius, kmh_to_mph\n",
            replace:
              "from weather.units import celsius_to_fahrenheit, fahrenheit_to_celsius, kelvin_to_celsius, kmh_to_mph\n",
          },
          {
            search: "    def test_kmh_to_mph(self):\n",
            replace:
              "    def test_kelvin_to_celsius(self):\n        self.assertAlmostEqual(kelvin_to_celsius(293.15), 20.0)\n        self.assertAlmostEqual(kelvin_to_celsius(0), -273.15)\n\n    def test_kmh_to_mph(self):\n",
          },
        ],
      },
    ],
  },
  {
    repo: "octocat/weather-cli",
    issueNumber: 3,
    title: "Wrap the compass index back to north",
    analysis:
      "compass_point() rounds degrees / 22.5 to the nearest point; for 348.75° and above this gives 16, one past the last entry of POINTS.",
    proposedSolution: "Take the rounded index modulo 16 so directions just below 360° map to N.",
    files: [
      {
        filename: "weather/compass.py",
        action: "modify",
        edits: [
          {
            search: "    index = int((degrees % 360) / 22.5 + 0.5)\n",
            replace: "    index = int((degrees % 360) / 22.5 + 0.5) % len(POINTS)\n",
          },
        ],
      },
    ],
  },
  {
    repo: "octocat/weather-cli",
    issueNumber: 4,
    title: "Return an empty summary when there are no readings",
    analysis:
      "daily_summary() calls max() and min() on the readings without checking for an empty list, which raises ValueError.",
    proposedSolution:
      "Return a summary whose values are None when there are no readings; format_summary() already prints 'no hourly data available' for it.",
    files: [
      {
        filename: "weather/forecast.py",
        action: "modify",
        edits: [
          {
            search: '    """Min, max and mean temperature in Celsius, plus the windiest reading."""\n',
            replace:
              '    """Min, max and mean temperature in Celsius, plus the windiest reading."""\n    if not readings:\n        return {"min": None, "max": None, "mean": None, "windiest_hour": None, "windiest_deg": None}\n',
          },
        ],
      },
    ],
  },
];
