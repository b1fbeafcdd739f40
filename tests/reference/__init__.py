"""Python references for what the page computes in JavaScript (ui/stepper_assets/)."""
