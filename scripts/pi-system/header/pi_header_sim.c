// SPDX-License-Identifier: GPL-2.0
/*
 * The Raspberry Pi's 40-pin header, simulated for scripts/pi-system-check:
 * a GPIO chip of 58 lines named GPIO0 to GPIO57, as a Pi 4's pinctrl-bcm2711
 * chip, whose input levels are set from outside through debugfs
 * (/sys/kernel/debug/pi-header/GPIO<n>: 1 high, 0 low, as a switch to
 * ground pulls it) and which raises edge interrupts, so that the kernel's
 * GPIO character device (and lgpio, and gpiozero above it) sees a button
 * press exactly as on a Pi.
 *
 * Debian's arm64 kernel has neither gpio-sim nor gpio-mockup (nor the
 * irq_sim they need), so this is built against its headers in the guest.
 * Until a level is set from outside, a line reads as its bias makes it (a
 * pull-up: high), like a Pi's open input.
 */
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/gpio/driver.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/pinctrl/pinconf-generic.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#define LINES 58

struct header;

struct header_line {
	struct header *header;
	unsigned int offset;
};

struct header {
	struct gpio_chip chip;
	spinlock_t lock;
	DECLARE_BITMAP(output, LINES);	/* a line the kernel drives */
	DECLARE_BITMAP(driven, LINES);	/* its output level */
	DECLARE_BITMAP(pull_up, LINES);	/* the bias asked for */
	DECLARE_BITMAP(outside, LINES);	/* a level set from outside... */
	DECLARE_BITMAP(outside_level, LINES);	/* ...and what it is */
	DECLARE_BITMAP(irq_enabled, LINES);
	DECLARE_BITMAP(pending, LINES);
	unsigned int irq_type[LINES];
	struct irq_work work;
	struct header_line lines[LINES];
	char *names[LINES];
	struct platform_device *pdev;
	struct dentry *debugfs;
};

static struct header *the_header;

static int level_locked(struct header *h, unsigned int offset)
{
	if (test_bit(offset, h->output))
		return test_bit(offset, h->driven);
	if (test_bit(offset, h->outside))
		return test_bit(offset, h->outside_level);
	return test_bit(offset, h->pull_up);
}

/* Called with the lock held after a line may have changed from old. */
static void edge_locked(struct header *h, unsigned int offset, int old)
{
	int now = level_locked(h, offset);
	unsigned int type = h->irq_type[offset];

	if (now == old || !test_bit(offset, h->irq_enabled))
		return;
	if ((now && (type & IRQ_TYPE_EDGE_RISING)) || (!now && (type & IRQ_TYPE_EDGE_FALLING))) {
		set_bit(offset, h->pending);
		irq_work_queue(&h->work);
	}
}

/* The interrupts, raised in hard interrupt context as a controller's are. */
static void raise_pending(struct irq_work *work)
{
	struct header *h = container_of(work, struct header, work);
	unsigned int offset;

	for_each_set_bit(offset, h->pending, LINES) {
		clear_bit(offset, h->pending);
		generic_handle_domain_irq(h->chip.irq.domain, offset);
	}
}

/* Set or clear one line's bit in BITS, raising the edge it makes, if any. */
static void change_line(struct header *h, unsigned int offset, unsigned long *bits, bool value)
{
	unsigned long flags;
	int old;

	spin_lock_irqsave(&h->lock, flags);
	old = level_locked(h, offset);
	assign_bit(offset, bits, value);
	edge_locked(h, offset, old);
	spin_unlock_irqrestore(&h->lock, flags);
}

static int header_get(struct gpio_chip *chip, unsigned int offset)
{
	struct header *h = gpiochip_get_data(chip);
	unsigned long flags;
	int level;

	spin_lock_irqsave(&h->lock, flags);
	level = level_locked(h, offset);
	spin_unlock_irqrestore(&h->lock, flags);
	return level;
}

static void header_set(struct gpio_chip *chip, unsigned int offset, int value)
{
	struct header *h = gpiochip_get_data(chip);

	change_line(h, offset, h->driven, value);
}

static int header_get_direction(struct gpio_chip *chip, unsigned int offset)
{
	struct header *h = gpiochip_get_data(chip);

	return test_bit(offset, h->output) ? GPIO_LINE_DIRECTION_OUT : GPIO_LINE_DIRECTION_IN;
}

static int header_direction_input(struct gpio_chip *chip, unsigned int offset)
{
	struct header *h = gpiochip_get_data(chip);

	change_line(h, offset, h->output, false);
	return 0;
}

static int header_direction_output(struct gpio_chip *chip, unsigned int offset, int value)
{
	struct header *h = gpiochip_get_data(chip);
	unsigned long flags;

	spin_lock_irqsave(&h->lock, flags);
	assign_bit(offset, h->driven, value);
	set_bit(offset, h->output);
	spin_unlock_irqrestore(&h->lock, flags);
	return 0;
}

static int header_set_config(struct gpio_chip *chip, unsigned int offset, unsigned long config)
{
	struct header *h = gpiochip_get_data(chip);

	switch (pinconf_to_config_param(config)) {
	case PIN_CONFIG_BIAS_PULL_UP:
	case PIN_CONFIG_BIAS_PULL_DOWN:
	case PIN_CONFIG_BIAS_DISABLE:
		change_line(h, offset, h->pull_up,
			    pinconf_to_config_param(config) == PIN_CONFIG_BIAS_PULL_UP);
		return 0;
	default:
		return -ENOTSUPP;
	}
}

static void header_irq_mask(struct irq_data *d)
{
	struct gpio_chip *chip = irq_data_get_irq_chip_data(d);
	struct header *h = gpiochip_get_data(chip);

	clear_bit(irqd_to_hwirq(d), h->irq_enabled);
	gpiochip_disable_irq(chip, irqd_to_hwirq(d));
}

static void header_irq_unmask(struct irq_data *d)
{
	struct gpio_chip *chip = irq_data_get_irq_chip_data(d);
	struct header *h = gpiochip_get_data(chip);

	gpiochip_enable_irq(chip, irqd_to_hwirq(d));
	set_bit(irqd_to_hwirq(d), h->irq_enabled);
}

static int header_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct gpio_chip *chip = irq_data_get_irq_chip_data(d);
	struct header *h = gpiochip_get_data(chip);

	if (type & IRQ_TYPE_LEVEL_MASK)
		return -EINVAL;	/* a Pi's buttons are read by their edges */
	h->irq_type[irqd_to_hwirq(d)] = type;
	irq_set_handler_locked(d, handle_simple_irq);
	return 0;
}

static const struct irq_chip header_irq_chip = {
	.name = "pi-header-sim",
	.irq_mask = header_irq_mask,
	.irq_unmask = header_irq_unmask,
	.irq_set_type = header_irq_set_type,
	.flags = IRQCHIP_IMMUTABLE | IRQCHIP_SKIP_SET_WAKE,
	GPIOCHIP_IRQ_RESOURCE_HELPERS,
};

/* debugfs: the level the outside world puts on a line. */
static int outside_get(void *data, u64 *value)
{
	struct header_line *line = data;

	*value = header_get(&line->header->chip, line->offset);
	return 0;
}

static int outside_set(void *data, u64 value)
{
	struct header_line *line = data;
	struct header *h = line->header;

	if (value > 1)
		return -EINVAL;
	/* The level first: it counts once the line is driven from outside. */
	change_line(h, line->offset, h->outside_level, value);
	change_line(h, line->offset, h->outside, true);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(outside_fops, outside_get, outside_set, "%llu\n");

static int __init header_init(void)
{
	struct header *h;
	struct gpio_irq_chip *girq;
	unsigned int offset;
	int ret;

	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	spin_lock_init(&h->lock);
	init_irq_work(&h->work, raise_pending);
	for (offset = 0; offset < LINES; offset++) {
		h->names[offset] = kasprintf(GFP_KERNEL, "GPIO%u", offset);
		h->lines[offset].header = h;
		h->lines[offset].offset = offset;
	}
	h->pdev = platform_device_register_simple("pi-header-sim", -1, NULL, 0);
	if (IS_ERR(h->pdev)) {
		ret = PTR_ERR(h->pdev);
		goto free;
	}
	h->chip.label = "pinctrl-bcm2711";
	h->chip.parent = &h->pdev->dev;
	h->chip.owner = THIS_MODULE;
	h->chip.base = -1;
	h->chip.ngpio = LINES;
	h->chip.names = (const char *const *)h->names;
	h->chip.get = header_get;
	h->chip.set = header_set;
	h->chip.get_direction = header_get_direction;
	h->chip.direction_input = header_direction_input;
	h->chip.direction_output = header_direction_output;
	h->chip.set_config = header_set_config;
	girq = &h->chip.irq;
	gpio_irq_chip_set_chip(girq, &header_irq_chip);
	girq->handler = handle_simple_irq;
	girq->default_type = IRQ_TYPE_NONE;
	ret = gpiochip_add_data(&h->chip, h);
	if (ret)
		goto unregister;
	h->debugfs = debugfs_create_dir("pi-header", NULL);
	for (offset = 0; offset < LINES; offset++)
		debugfs_create_file_unsafe(h->names[offset], 0600, h->debugfs, &h->lines[offset],
					   &outside_fops);
	the_header = h;
	return 0;
unregister:
	platform_device_unregister(h->pdev);
free:
	for (offset = 0; offset < LINES; offset++)
		kfree(h->names[offset]);
	kfree(h);
	return ret;
}

static void __exit header_exit(void)
{
	struct header *h = the_header;
	unsigned int offset;

	debugfs_remove_recursive(h->debugfs);	/* no new levels, so no new work */
	irq_work_sync(&h->work);	/* the last interrupts, while their domain lives */
	gpiochip_remove(&h->chip);
	platform_device_unregister(h->pdev);
	for (offset = 0; offset < LINES; offset++)
		kfree(h->names[offset]);
	kfree(h);
}

module_init(header_init);
module_exit(header_exit);
MODULE_DESCRIPTION("The Raspberry Pi's GPIO header, simulated (scripts/pi-system-check)");
MODULE_LICENSE("GPL");
